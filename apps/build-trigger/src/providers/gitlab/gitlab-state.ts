import type { BuildRun, BuildStatus } from '../../build/build-run.js';
import type { GitLabPipeline } from './gitlab-api.js';

/**
 * | GitLab status                                             | normalised | note in the node message |
 * |-----------------------------------------------------------|------------|--------------------------|
 * | created, pending, waiting_for_resource, preparing          | queued     | why it waits             |
 * | running, canceling, waiting_for_callback                   | running    |                          |
 * | manual, scheduled                                          | running    | blocked: a person or a schedule must act |
 * | success                                                    | succeeded  |                          |
 * | failed, skipped (nothing ran)                              | failed     |                          |
 * | canceled                                                   | cancelled  |                          |
 * Anything else: undefined (keep polling; a timeout applies).
 */
export function gitlabPipelineStatus(status: string): BuildStatus | undefined {
  switch (status) {
    case 'created':
    case 'pending':
    case 'waiting_for_resource':
    case 'preparing':
      return 'queued';
    case 'running':
    case 'canceling':
    case 'waiting_for_callback':
    case 'manual':
    case 'scheduled':
      return 'running';
    case 'success':
      return 'succeeded';
    case 'failed':
    case 'skipped':
      return 'failed';
    case 'canceled':
      return 'cancelled';
    default:
      return undefined;
  }
}

const WAITING = new Map<string, string>([
  ['pending', 'waiting for a runner'],
  ['waiting_for_resource', 'waiting for a resource group'],
  ['preparing', 'preparing the environment'],
  ['canceling', 'canceling'],
  ['waiting_for_callback', 'waiting for an external callback'],
  ['manual', 'blocked: waiting for a manual action'],
  ['scheduled', 'blocked: waiting for a delayed job'],
  ['skipped', 'skipped: nothing ran'],
]);

const time = (value: string | null | undefined): number | undefined => {
  const ms = Date.parse(value ?? '');
  return Number.isFinite(ms) ? ms : undefined;
};

export function runFromPipeline(pipeline: GitLabPipeline, project: string): BuildRun {
  const status = gitlabPipelineStatus(pipeline.status) ?? 'running';
  const group = pipeline.detailed_status?.group;
  return {
    provider: 'gitlab',
    id: String(pipeline.id),
    url: pipeline.web_url,
    status,
    // `success-with-warnings` says more than `success` (jobs that may fail did fail).
    result: pipeline.status === 'success' && group === 'success-with-warnings' ? group : pipeline.status,
    label: `${project} pipeline ${pipeline.id}`,
    startedAt: time(pipeline.started_at) ?? time(pipeline.created_at),
    finishedAt: time(pipeline.finished_at),
    ...(typeof pipeline.duration === 'number' && { durationMs: pipeline.duration * 1000 }),
    ...(WAITING.has(pipeline.status) && { waitingReason: WAITING.get(pipeline.status) }),
  };
}
