import { formatDuration } from '@app/contract';
import type { OutputValues } from '@app/plugin-kit';
import type { BuildRun } from './build-run.js';

/** Whole seconds as a Go duration (`1m30s`, `2h0m5s`, `0s`); '' when unknown. */
export function formatBuildDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  return formatDuration(Math.round(ms / 1000) * 1000);
}

export function runDurationMs(run: BuildRun): number | undefined {
  if (run.durationMs !== undefined) return run.durationMs;
  if (run.startedAt !== undefined && run.finishedAt !== undefined)
    return Math.max(0, run.finishedAt - run.startedAt);
  return undefined;
}

/** The node's output parameters: always all six, '' for what is not known yet. */
export function buildOutputs(run: BuildRun): OutputValues {
  return {
    provider: run.provider,
    id: run.id,
    url: run.url,
    status: run.status,
    result: run.result,
    duration: formatBuildDuration(runDurationMs(run)),
  };
}

const link = (run: BuildRun): string => (run.url ? `: ${run.url}` : '');

/** `jenkins: folder/app queued (Waiting for next available executor): https://…` */
export function progressMessage(run: BuildRun): string {
  const reason = run.waitingReason ? ` (${run.waitingReason})` : '';
  return `${run.provider}: ${run.label} ${run.status}${reason}${link(run)}`;
}

/** `jenkins: folder/app #42 finished UNSTABLE after 1m30s: https://…` */
export function finishedMessage(run: BuildRun, note?: string): string {
  const duration = formatBuildDuration(runDurationMs(run));
  const verb = run.status === 'cancelled' ? 'was cancelled' : 'finished';
  return `${run.provider}: ${run.label} ${verb} ${run.result || run.status}${duration ? ` after ${duration}` : ''}${note ? ` (${note})` : ''}${link(run)}`;
}

/** `started folder/app (not waiting): https://…` for wait: false. */
export function startedMessage(run: BuildRun, recovered: boolean): string {
  return `${run.provider}: ${recovered ? 'found the build already started' : 'started'} ${run.label}, ${run.status} (wait: false)${link(run)}`;
}

export function timedOutMessage(run: BuildRun, timeout: string, cancelled: boolean): string {
  const what = cancelled ? `cancelled ${run.url || run.label}` : `could not cancel ${run.url || run.label}`;
  return `${run.provider}: ${run.label} timed out after ${timeout}; ${what}`;
}
