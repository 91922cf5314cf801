import type { BuildRun, BuildStatus } from '../../build/build-run.js';
import type { WorkflowRun } from './github-api.js';

/**
 * | status                                      | conclusion                                   | normalised |
 * |---------------------------------------------|----------------------------------------------|------------|
 * | requested, queued, pending, waiting         |                                              | queued     |
 * | in_progress                                 |                                              | running    |
 * | completed                                   | success, neutral, skipped                    | succeeded  |
 * | completed                                   | cancelled                                    | cancelled  |
 * | completed                                   | failure, timed_out, action_required, stale, startup_failure | failed |
 * Anything else: undefined (keep polling; a timeout applies).
 */
export function githubRunStatus(status: string | null, conclusion: string | null): BuildStatus | undefined {
  switch (status) {
    case 'requested':
    case 'queued':
    case 'pending':
    case 'waiting':
      return 'queued';
    case 'in_progress':
      return 'running';
    case 'completed':
      break;
    default:
      return undefined;
  }
  switch (conclusion) {
    case 'success':
    case 'neutral':
    case 'skipped':
      return 'succeeded';
    case 'cancelled':
      return 'cancelled';
    case 'failure':
    case 'timed_out':
    case 'action_required':
    case 'stale':
    case 'startup_failure':
      return 'failed';
    default:
      return undefined;
  }
}

const WAITING = new Map<string, string>([
  ['waiting', 'waiting for a deployment review (environment protection rule)'],
  ['pending', 'pending: waiting for a concurrency group'],
  ['requested', 'requested'],
]);

export function runFromWorkflowRun(run: WorkflowRun, subject: string): BuildRun {
  const status =
    githubRunStatus(run.status, run.conclusion) ?? (run.status === 'completed' ? 'running' : 'queued');
  const completed = run.status === 'completed' && githubRunStatus(run.status, run.conclusion) !== undefined;
  const startedAt = Date.parse(run.run_started_at ?? run.created_at ?? '');
  const finishedAt = completed ? Date.parse(run.updated_at ?? '') : NaN;
  return {
    provider: 'github',
    id: String(run.id),
    url: run.html_url,
    status,
    result: completed ? (run.conclusion ?? '') : (run.status ?? ''),
    label: `${subject} run ${run.id}`,
    ...(Number.isFinite(startedAt) && { startedAt }),
    ...(Number.isFinite(finishedAt) && { finishedAt }),
    ...(run.status && WAITING.has(run.status) && { waitingReason: WAITING.get(run.status) }),
  };
}
