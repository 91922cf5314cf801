import {
  runOutcome,
  UpstreamError,
  type BegunRun,
  type CancelResult,
  type ExecutionContext,
  type PickedProvider,
  type RemoteRunDriver,
  type RemoteRunState,
  type RunObservation,
  type RunReport,
} from '@app/plugin-kit';
import type { DataJobConfig } from '../dto/data-job-config.dto.js';
import type { DataJobProvider, PollRequest } from '../providers/data-job-provider.js';
import { runMessage, runOutputs, timeoutMessage, type ReportInput } from './job-report.js';
import type { JobRun, RunExtras, RunRef } from './job-run.js';

/** The run's handle and its last view (without the upstream's raw reply). */
export type DataJobState = RemoteRunState<RunRef, JobRun>;

type Ctx = ExecutionContext<DataJobConfig, DataJobState>;

/**
 * A data job as a remote run. `start` is idempotent through the upstream's own key, so the first call of an
 * execution and the first after a sidecar restart both go through it and lead to the same run.
 */
export class DataJobDriver implements RemoteRunDriver<RunRef, JobRun> {
  /** The upstream's last reply in this call, with the raw body `finish` reads; the state keeps it without. */
  private latest?: JobRun;

  private readonly name: string;
  private readonly block: unknown;
  private readonly provider: DataJobProvider<unknown>;

  constructor(
    private readonly ctx: Ctx,
    { key, block, client }: PickedProvider<DataJobProvider<unknown>>,
  ) {
    this.name = key;
    this.block = block;
    this.provider = client;
  }

  async begin(): Promise<BegunRun<RunRef, JobRun>> {
    const { key, workflow, signal, logger } = this.ctx;
    const run = await this.provider.start({ block: this.block, key, workflow, signal, logger });
    return { ...this.observe(run.ref, run), provisional: run.provisional };
  }

  async poll(ref: RunRef): Promise<RunObservation<RunRef, JobRun>> {
    return this.observe(ref, await this.provider.poll(this.pollRequest(ref)));
  }

  async cancel(ref: RunRef, signal: AbortSignal): Promise<undefined> {
    await this.provider.cancel(ref, signal);
    return undefined;
  }

  outcome({ state }: JobRun) {
    return runOutcome(state);
  }

  describe({ ref, state, upstreamState }: JobRun) {
    return { provider: this.name, runId: ref.runId, state, upstreamState };
  }

  progress(run: JobRun, { startedAt }: DataJobState): RunReport {
    return this.report(run, startedAt, 'progress');
  }

  started(run: JobRun, { startedAt }: DataJobState): RunReport {
    return this.report(run, startedAt, 'started');
  }

  async finished(run: JobRun, { ref, startedAt }: DataJobState): Promise<RunReport> {
    return this.report(run, startedAt, 'final', await this.extras(this.latest ?? run, ref));
  }

  /** A cancel the upstream refuses fails the call with its message; the next call tries again. */
  timedOut({ run, startedAt }: DataJobState, { error }: CancelResult<JobRun>): RunReport {
    if (error !== undefined) throw error;
    const outputs = runOutputs(this.input({ ...run, state: 'cancelled' }, startedAt));
    return { message: timeoutMessage(this.name, run, this.ctx.config.timeout!), outputs };
  }

  private report(
    run: JobRun,
    startedAt: number,
    phase: 'started' | 'progress' | 'final',
    extras?: RunExtras,
  ): RunReport {
    const input = this.input(run, startedAt, extras);
    return { message: runMessage(input, phase), outputs: runOutputs(input) };
  }

  private input(run: JobRun, startedAt: number, extras?: RunExtras): ReportInput {
    return { provider: this.name, run, startedAt, now: Date.now(), extras };
  }

  /** Extras are a nicety: a permanent failure to fetch them does not change the run's result. */
  private async extras(run: JobRun, ref: RunRef): Promise<RunExtras | undefined> {
    if (!this.provider.finish) return undefined;
    try {
      return await this.provider.finish(run, this.pollRequest(ref));
    } catch (err) {
      if (err instanceof UpstreamError && err.transient) throw err;
      this.ctx.logger.warn(
        { provider: this.name, runId: run.ref.runId },
        `could not fetch run extras: ${(err as Error).message}`,
      );
      return undefined;
    }
  }

  private observe(ref: RunRef, run: JobRun): RunObservation<RunRef, JobRun> {
    this.latest = run;
    if (run.unknownState)
      this.ctx.logger.warn(
        { provider: this.name, upstreamState: run.upstreamState },
        'unknown upstream state: still polling',
      );
    const { raw: _raw, ...kept } = run;
    return { ref, run: kept, startedAt: run.startedAt };
  }

  private pollRequest(ref: RunRef): PollRequest<unknown> {
    const cancelRequested = this.ctx.state.get()?.cancelRequestedAt !== undefined;
    const declaredOutputs = new Set((this.ctx.template.outputs?.parameters ?? []).map((p) => p.name));
    return { ref, block: this.block, signal: this.ctx.signal, cancelRequested, declaredOutputs };
  }
}
