import { formatDuration } from '@app/contract';
import type { OutputValues } from '@app/plugin-kit';
import { PROVIDERS } from '../providers/index.js';
import type { JobRun, RunExtras } from './job-run.js';

/** A provider's name in messages (`dbt Cloud`). */
const label = (provider: string): string => PROVIDERS.providers.find((p) => p.key === provider)!.label;

/** A duration as Go prints it, whole seconds past one second (`1m23s`, `450ms`). */
export function runDuration(startedAt: number, finishedAt: number): string {
  const ms = Math.max(0, finishedAt - startedAt);
  return formatDuration(ms >= 1000 ? Math.round(ms / 1000) * 1000 : ms);
}

export interface ReportInput {
  provider: string;
  run: JobRun;
  /** Start of the run: the upstream's time if it gave one, else when this execution started or adopted it. */
  startedAt: number;
  now: number;
  extras?: RunExtras;
}

/** The node's output parameters: always provider, runId, url, state, upstreamState, duration; then extras. */
export function runOutputs({ provider, run, startedAt, now, extras }: ReportInput): OutputValues {
  return {
    provider,
    runId: run.ref.runId,
    url: run.url ?? '',
    state: run.state,
    upstreamState: run.upstreamState,
    duration: runDuration(startedAt, run.finishedAt ?? now),
    ...run.extras,
    ...extras?.outputs,
  };
}

function describe(run: JobRun, extras?: RunExtras): string {
  const parts = [run.message, extras?.detail].filter((p): p is string => !!p && p.trim() !== '');
  return parts.length > 0 ? `: ${parts.join('; ')}` : '';
}

const where = (run: JobRun): string => (run.url ? ` (${run.url})` : '');

/** `Databricks run 455 is running (RUNNING): <message> (<url>)` and its terminal variants. */
export function runMessage(input: ReportInput, phase: 'started' | 'progress' | 'final'): string {
  const { provider, run } = input;
  const subject = `${label(provider)} run ${run.ref.runId}`;
  if (phase === 'started') return `${subject} started (${run.upstreamState})${where(run)}`;
  switch (run.state) {
    case 'succeeded':
      return `${subject} succeeded (${run.upstreamState}) in ${runDuration(input.startedAt, run.finishedAt ?? input.now)}${where(run)}`;
    case 'failed':
      return `${subject} failed (${run.upstreamState})${describe(run, input.extras)}${where(run)}`;
    case 'cancelled':
      return `${subject} was cancelled (${run.upstreamState})${describe(run, input.extras)}${where(run)}`;
    default:
      return `${subject} is ${run.state} (${run.upstreamState})${describe(run)}${where(run)}`;
  }
}

/** The message when the body's timeout cancelled the run. */
export function timeoutMessage(provider: string, run: JobRun, timeout: string): string {
  return `${label(provider)} run ${run.ref.runId} timed out after ${timeout} and was cancelled (last state ${run.upstreamState})${where(run)}`;
}
