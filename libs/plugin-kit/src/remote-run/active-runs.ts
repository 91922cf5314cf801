import type { BeforeApplicationShutdown, FactoryProvider } from '@nestjs/common';
import { PluginLogger, type LogFields } from '../logging/plugin-logger.js';

/** A run being followed, as the shutdown needs it. */
export interface TrackedRun {
  /** Log fields that name the run. */
  fields: LogFields;
  cancel(signal: AbortSignal): Promise<unknown>;
}

/** Where the lifecycle registers the runs it follows (non-terminal) and drops them once they are final. */
export interface RunTracker {
  track(key: string, run: TrackedRun): void;
  forget(key: string): void;
}

export interface ActiveRunsOptions {
  /** The plugin's CANCEL_ON_SHUTDOWN. */
  cancelOnShutdown: boolean;
  /**
   * How log lines name a run: `build` gives "cancelled the build on shutdown"; unset, "cancelled on shutdown".
   */
  noun?: string;
  /** How long shutdown waits for the cancel requests (a pod's grace period is usually 30s); default 10s. */
  budgetMs?: number;
}

/** Most runs remembered; the least recently polled go first (executions nobody polls any more). */
const MAX_TRACKED = 10_000;
/** Cancel requests in flight at once on shutdown. */
const CONCURRENCY = 8;

/**
 * The non-terminal runs this process is following. With CANCEL_ON_SHUTDOWN=true they are cancelled upstream
 * when the sidecar stops (the kit closes the Nest context during graceful shutdown). Off by default: a
 * sidecar also stops when it is evicted or its node drained, and then the run must survive for the next
 * sidecar to adopt. Each cancellation is logged; failures are logged, never thrown.
 */
export class ActiveRuns implements RunTracker, BeforeApplicationShutdown {
  /** Keyed by execution; without CANCEL_ON_SHUTDOWN only the key is kept (nothing to cancel, nothing retained). */
  private readonly runs = new Map<string, TrackedRun | undefined>();

  constructor(
    private readonly logger: PluginLogger,
    private readonly options: ActiveRunsOptions,
  ) {}

  get size(): number {
    return this.runs.size;
  }

  track(key: string, run: TrackedRun): void {
    this.runs.delete(key); // re-inserted: the map stays ordered by last poll
    this.runs.set(key, this.options.cancelOnShutdown ? run : undefined);
    if (this.runs.size > MAX_TRACKED) this.runs.delete(this.runs.keys().next().value!);
  }

  forget(key: string): void {
    this.runs.delete(key);
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    const runs = [...this.runs.values()].filter((run): run is TrackedRun => run !== undefined);
    const left = this.runs.size;
    this.runs.clear();
    if (left === 0) return;
    const { cancelOnShutdown, noun, budgetMs = 10_000 } = this.options;
    if (!cancelOnShutdown) {
      this.logger.info({ runs: left }, `leaving the ${noun ?? 'run'}s running (CANCEL_ON_SHUTDOWN is off)`);
      return;
    }
    this.logger.info(
      { runs: runs.length, signal },
      `CANCEL_ON_SHUTDOWN: cancelling the ${noun ?? 'run'}s this sidecar was waiting for`,
    );
    const budget = AbortSignal.timeout(budgetMs);
    const queue = runs.values(); // shared by the workers: each run is taken once
    const worker = async (): Promise<void> => {
      for (const run of queue) if (!budget.aborted) await this.cancel(run, budget);
    };
    const workers = Array.from({ length: Math.min(CONCURRENCY, runs.length) }, worker);
    await Promise.race([Promise.all(workers), new Promise((end) => budget.addEventListener('abort', end))]);
  }

  private async cancel(run: TrackedRun, signal: AbortSignal): Promise<void> {
    const the = this.options.noun ? ` the ${this.options.noun}` : '';
    try {
      await run.cancel(signal);
      this.logger.info(run.fields, `cancelled${the} on shutdown`);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn(run.fields, `could not cancel${the} on shutdown: ${reason}`);
    }
  }
}

/**
 * `providers: [provideActiveRuns(XEnv, (env) => ({ cancelOnShutdown: env.CANCEL_ON_SHUTDOWN }))]`: one
 * ActiveRuns per plugin module, injected into the handler by its class.
 */
export function provideActiveRuns<E extends object>(
  envClass: abstract new (...args: never[]) => E,
  options: (env: E) => ActiveRunsOptions,
): FactoryProvider<ActiveRuns> {
  return {
    provide: ActiveRuns,
    inject: [envClass, PluginLogger],
    useFactory: (env: E, logger: PluginLogger) => new ActiveRuns(logger, options(env)),
  };
}
