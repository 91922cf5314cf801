import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { PluginLogger } from '@app/plugin-kit';
import { DataJobEnv } from '../config/data-job.env.js';
import type { RunRef } from '../job/job-run.js';
import type { DataJobProvider } from '../providers/data-job-provider.js';

interface ActiveRun {
  provider: string;
  ref: RunRef;
  cancel: (ref: RunRef, signal: AbortSignal) => Promise<void>;
}

/** Longest the shutdown waits for the cancel requests. */
const CANCEL_BUDGET_MS = 5000;

/**
 * The runs this sidecar is waiting for. With CANCEL_ON_SHUTDOWN=true they are cancelled when the sidecar
 * stops (the agent pod is deleted when a workflow is stopped or terminated). Off by default: the pod is also
 * deleted on eviction or node drain, when the controller starts a new agent that should adopt the runs.
 */
@Injectable()
export class ActiveRuns implements BeforeApplicationShutdown {
  private readonly runs = new Map<string, ActiveRun>();

  constructor(
    private readonly env: DataJobEnv,
    private readonly logger: PluginLogger,
  ) {}

  get size(): number {
    return this.runs.size;
  }

  track(key: string, provider: string, ref: RunRef, upstream: DataJobProvider<unknown>): void {
    this.runs.set(key, { provider, ref, cancel: (r, s) => upstream.cancel(r, s) });
  }

  forget(key: string): void {
    this.runs.delete(key);
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    if (!this.env.CANCEL_ON_SHUTDOWN || this.runs.size === 0) return;
    const runs = [...this.runs.values()];
    this.runs.clear();
    this.logger.info(
      { runs: runs.length, signal },
      'CANCEL_ON_SHUTDOWN: cancelling the runs this sidecar was waiting for',
    );
    const timeout = AbortSignal.timeout(CANCEL_BUDGET_MS);
    const results = await Promise.allSettled(runs.map((r) => r.cancel(r.ref, timeout)));
    results.forEach((result, i) => {
      const { provider, ref } = runs[i];
      if (result.status === 'fulfilled')
        this.logger.info({ provider, runId: ref.runId }, 'cancelled on shutdown');
      else
        this.logger.warn(
          { provider, runId: ref.runId },
          `could not cancel on shutdown: ${(result.reason as Error).message}`,
        );
    });
  }
}
