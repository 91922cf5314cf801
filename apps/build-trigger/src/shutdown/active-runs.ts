import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { PluginLogger } from '@app/plugin-kit';
import { BuildTriggerEnv } from '../config/build-trigger.env.js';

interface ActiveRun {
  label: string;
  url: string;
  cancel: () => Promise<unknown>;
}

/** Most builds remembered; the least recently polled go first. */
const MAX_TRACKED = 10_000;

/** How long shutdown waits for the cancel requests (the pod's grace period is usually 30s). */
const CANCEL_BUDGET_MS = 10_000;

/**
 * The non-terminal builds this process is following. With CANCEL_ON_SHUTDOWN=true they are cancelled
 * upstream when the sidecar stops (the kit closes the Nest context during graceful shutdown). Off by
 * default: a sidecar also stops for reasons other than the workflow being stopped (node drain, OOM,
 * agent pod rescheduled), and then the build must survive for the next sidecar to pick up.
 */
@Injectable()
export class ActiveRuns implements BeforeApplicationShutdown {
  private readonly runs = new Map<string, ActiveRun>();

  constructor(
    private readonly env: BuildTriggerEnv,
    private readonly logger: PluginLogger,
  ) {}

  get size(): number {
    return this.runs.size;
  }

  track(key: string, run: ActiveRun): void {
    this.runs.delete(key); // re-inserted: the map stays ordered by last poll
    this.runs.set(key, run);
    // Executions nobody polls any more (workflow deleted) would otherwise stay forever.
    if (this.runs.size > MAX_TRACKED) this.runs.delete(this.runs.keys().next().value!);
  }

  forget(key: string): void {
    this.runs.delete(key);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.runs.size === 0) return;
    if (!this.env.CANCEL_ON_SHUTDOWN) {
      this.logger.info({ builds: this.runs.size }, 'leaving the builds running (CANCEL_ON_SHUTDOWN is off)');
      return;
    }
    const attempts = [...this.runs.values()].map(async (run) => {
      try {
        await run.cancel();
        this.logger.info({ build: run.label, url: run.url }, 'cancelled the build on shutdown');
      } catch (err) {
        this.logger.warn(
          { build: run.label, url: run.url, error: (err as Error).message },
          'could not cancel the build on shutdown',
        );
      }
    });
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, CANCEL_BUDGET_MS)));
    await Promise.race([Promise.allSettled(attempts), budget]);
    clearTimeout(timer);
    this.runs.clear();
  }
}
