import type { ExecuteTemplateReply } from '@app/contract';
import type { OutputValues } from '../execution/replies.js';
import type { LogFields } from '../logging/plugin-logger.js';

/** How a run ended. */
export type RunOutcome = 'succeeded' | 'failed' | 'cancelled';

/** A run's state, normalised across upstreams: queued (not yet doing the work), running, or how it ended. */
export type RunState = 'queued' | 'running' | RunOutcome;

/** How a run in `state` ended; undefined while it is queued or running. */
export function runOutcome(state: RunState): RunOutcome | undefined {
  return state === 'queued' || state === 'running' ? undefined : state;
}

/** One look at a run: the handle to follow it by and what the upstream said about it. */
export interface RunObservation<Ref, Run> {
  /** The provider's own handle (a queue id, a run id, ...); it may change (a queue item becomes a build). */
  ref: Ref;
  /** The run, normalised. Kept in ctx.state between calls: leave large upstream replies out. */
  run: Run;
  /** When the upstream says the run started (epoch ms): the timeout counts from the earliest start known. */
  startedAt?: number;
  /** Call back soon (a handle is still being resolved): the requeue is at most `soonMs`. */
  soon?: boolean;
}

export interface BegunRun<Ref, Run> extends RunObservation<Ref, Run> {
  /** true: found the run an earlier call started; false: started it now; unset: the start cannot tell. */
  adopted?: boolean;
  /** Only a handle is known yet (Databricks run-now returns an id): it is polled once before replying. */
  provisional?: boolean;
}

/** What a reply says: the node message and its output parameters. */
export interface RunReport {
  message: string;
  outputs: OutputValues;
}

/** What the lifecycle keeps in ctx.state for one execution (the plugin's own data is in `ref` and `run`). */
export interface RemoteRunState<Ref, Run> {
  /** Epoch ms: when this execution began the run, or the upstream's earlier start time. */
  startedAt: number;
  ref: Ref;
  /** The last observation. */
  run: Run;
  /** When the timeout cancelled the run upstream. */
  cancelRequestedAt?: number;
  /** The final reply, repeated to later identical calls without asking the upstream. */
  final?: ExecuteTemplateReply;
}

/** The answer to the cancel a timeout sends. */
export interface CancelResult<Run> {
  /** The run as the cancel reply describes it, when it does. */
  after?: Run;
  /** Why the cancel failed (a transient upstream error is retried on the next call instead). */
  error?: unknown;
}

/**
 * One plugin's upstream, for one call: the lifecycle decides when to start, poll and cancel, the driver does
 * it and words the replies. Upstream failures are UpstreamErrors, as everywhere in the kit.
 */
export interface RemoteRunDriver<Ref, Run> {
  /** Starts the run, or adopts the one an earlier call (maybe another process) started for this execution. */
  begin(): Promise<BegunRun<Ref, Run>>;
  /** Exactly one upstream request. */
  poll(ref: Ref): Promise<RunObservation<Ref, Run>>;
  /** Asks the upstream to stop the run (on timeout, and on shutdown with CANCEL_ON_SHUTDOWN). */
  cancel(ref: Ref, signal: AbortSignal): Promise<Run | undefined>;
  /** How the run ended; undefined while it is queued or running. */
  outcome(run: Run): RunOutcome | undefined;
  /** Log fields that name the run (`{ provider, runId }`). */
  describe(run: Run): LogFields;
  /** Running: the run is queued or running. */
  progress(run: Run, state: RemoteRunState<Ref, Run>): RunReport;
  /** Succeeded or Failed by the outcome; may fetch extras (logs, results) once. */
  finished(run: Run, state: RemoteRunState<Ref, Run>): RunReport | Promise<RunReport>;
  /** Failed: the timeout passed; `state.run` is the last observation. May throw to fail the call instead. */
  timedOut(state: RemoteRunState<Ref, Run>, cancel: CancelResult<Run>): RunReport;
  /** Succeeded with wait: false, right after the start. */
  started(run: Run, state: RemoteRunState<Ref, Run>, adopted: boolean | undefined): RunReport;
}
