import { isTransientKubeError, KubeError, type ArgoNodeResult, type KubeClient } from '@app/argo-agent';
import { isFinalPhase } from '@app/contract';
import type { PluginLogger } from '@app/plugin-kit';
import type { AgentMetrics } from '../observe/metrics.js';

interface Pending {
  namespace: string;
  name: string;
  results: Map<string, ArgoNodeResult>;
  /** When each node's task was first seen, for the task-to-patch latency. */
  seen: Map<string, number>;
}

/** Argo's agent patch backoff: 1 s doubling, 10 % jitter, 5 tries, at most 30 s apart. */
export const PATCH_BACKOFF = { firstMs: 1000, factor: 2, jitter: 0.1, steps: 5, capMs: 30_000 };

/**
 * Argo's agent patchWorker for every TaskSet at once: results are gathered per TaskSet and written at each
 * tick (ARGO_AGENT_PATCH_RATE) with one merge patch of the status subresource, `{"status":{"nodes":{…}}}`.
 * A transient failure is retried with Argo's backoff, then left for the next tick; any other failure turns
 * each of the TaskSet's results into an Error node saying so (its content is likely what the API refused) —
 * except a TaskSet that no longer exists, whose results go with it.
 */
export class ResultPatcher {
  private readonly pending = new Map<string, Pending>();
  private readonly writing = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: KubeClient,
    private readonly metrics: AgentMetrics,
    private readonly logger: PluginLogger,
    private readonly backoff = PATCH_BACKOFF,
    private readonly sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  ) {}

  /** Results waiting for the next tick. */
  get waiting(): number {
    let n = 0;
    for (const p of this.pending.values()) n += p.results.size;
    return n;
  }

  add(
    key: string,
    namespace: string,
    name: string,
    nodeId: string,
    result: ArgoNodeResult,
    seenAt?: number,
  ): void {
    let pending = this.pending.get(key);
    if (!pending) {
      pending = { namespace, name, results: new Map(), seen: new Map() };
      this.pending.set(key, pending);
    }
    pending.results.set(nodeId, result);
    if (seenAt !== undefined) pending.seen.set(nodeId, seenAt);
  }

  /** Drops the results not yet written of these tasks (the controller removed them: a stopped workflow). */
  forgetTasks(key: string, nodeIds: Iterable<string>): void {
    const pending = this.pending.get(key);
    for (const nodeId of nodeIds) pending?.results.delete(nodeId);
  }

  /** Drops what waits for a TaskSet that is gone. */
  forget(key: string): void {
    this.pending.delete(key);
  }

  start(rateMs: number): void {
    this.timer = setInterval(() => void this.flush(), rateMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Writes what waits (for these TaskSets, or all), after any write of theirs already under way. */
  async flush(keys: Iterable<string> = [...this.pending.keys()]): Promise<void> {
    await Promise.all([...keys].map((key) => this.write(key)));
  }

  private write(key: string): Promise<void> {
    const previous = this.writing.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.patch(key));
    this.writing.set(key, next);
    return next.finally(() => {
      if (this.writing.get(key) === next) this.writing.delete(key);
    });
  }

  private async patch(key: string): Promise<void> {
    const pending = this.pending.get(key);
    if (!pending || pending.results.size === 0) return;
    // What arrives while this patch is written waits for the next one.
    const results = pending.results;
    const seen = pending.seen;
    this.pending.delete(key);
    const path = `/apis/argoproj.io/v1alpha1/namespaces/${pending.namespace}/workflowtasksets/${pending.name}/status`;
    const body = { status: { nodes: Object.fromEntries(results) } };
    let error: unknown;
    for (let step = 1; ; step++) {
      try {
        await this.client.mergePatch(path, body);
        error = undefined;
        break;
      } catch (err) {
        error = err;
        this.metrics.patchErrors.inc({ transient: String(isTransientKubeError(err)) });
        if (!isTransientKubeError(err) || step >= this.backoff.steps) break;
        const delay = Math.min(this.backoff.capMs, this.backoff.firstMs * this.backoff.factor ** (step - 1));
        await this.sleep(delay * (1 + this.backoff.jitter * Math.random()));
      }
    }
    const log = this.logger.child({ namespace: pending.namespace, workflow: pending.name });
    if (error === undefined) {
      const now = Date.now();
      for (const [nodeId, result] of results) {
        this.metrics.tasks.inc({ phase: result.phase ?? '' });
        const at = seen.get(nodeId);
        if (at !== undefined && isFinalPhase(result.phase))
          this.metrics.taskToPatch.observe((now - at) / 1000);
      }
      log.debug({ nodes: results.size }, 'TaskSet patched');
      return;
    }
    if (error instanceof KubeError && error.status === 404) {
      log.info({ nodes: results.size }, 'TaskSet gone: its results are dropped');
      return;
    }
    // Back in line for the next tick, unless newer results for the same nodes arrived meanwhile.
    const again = this.pending.get(key) ?? { ...pending, results: new Map(), seen: new Map() };
    const message = error instanceof KubeError ? error.apiMessage : (error as Error).message;
    for (const [nodeId, result] of results) {
      if (again.results.has(nodeId)) continue;
      again.results.set(
        nodeId,
        isTransientKubeError(error)
          ? result
          : {
              phase: 'Error',
              message: `HTTP request completed successfully but an error occurred when patching its result: ${message}`,
            },
      );
      const at = seen.get(nodeId);
      if (at !== undefined) again.seen.set(nodeId, at);
    }
    this.pending.set(key, again);
    log.warn(
      { err: error, nodes: results.size, transient: isTransientKubeError(error) },
      'TaskSet patch failed',
    );
  }
}
