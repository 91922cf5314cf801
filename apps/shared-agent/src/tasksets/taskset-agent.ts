// The agent's core: Argo's agent loop (workflow/executor/agent.go Agent and taskWorker) for every TaskSet of
// the shards this replica holds. Each task of spec.tasks not final in status.nodes is offered once ("considered",
// as Argo's agent keeps it), again only after the requeue its plugin asked for; results go to the patcher.
// A replica that comes to a TaskSet with tasks already in it (a shard taken over, a restart) first asks the
// Workflow which of them are fulfilled: the controller clears a result from the TaskSet's status one patch before
// it removes the task from its spec, and a new owner has no memory of having run it.
import {
  processTask,
  templateType,
  type HttpTemplateOptions,
  type KubeClient,
  type PluginCaller,
  type WatchEvent,
} from '@app/argo-agent';
import { isFinalPhase, setLongTimeout, type LongTimer } from '@app/contract';
import type { PluginLogger } from '@app/plugin-kit';
import type { ShardOwner } from '../leases/shard-leases.js';
import { shardOf } from '../leases/shard-leases.js';
import type { AgentMetrics } from '../observe/metrics.js';
import type { PluginSet } from '../plugins/plugin-set.js';
import { namespaceSecrets } from '../tasks/namespace-secrets.js';
import type { ResultPatcher } from '../tasks/result-patcher.js';
import { TaskQueue } from '../tasks/task-queue.js';
import type { LeftTask, StoppedTasks } from './stopped-tasks.js';
import {
  holdTaskSet,
  isCompleted,
  olderResourceVersion,
  taskSetKey,
  type HeldTaskSet,
  type TaskSetObject,
} from './taskset.js';
import { creatorLabels, type WorkflowLabels } from './workflow-creator.js';
import type { TaskSetStore } from './taskset-store.js';

/** How often a handover looks whether the controller has taken the results just written. */
const TAKEN_POLL_MS = 100;

const taskSetPath = (namespace: string, name: string) =>
  `/apis/argoproj.io/v1alpha1/namespaces/${encodeURIComponent(namespace)}/workflowtasksets/${encodeURIComponent(name)}`;

export interface TaskSetAgentOptions {
  client: KubeClient;
  store: TaskSetStore;
  patcher: ResultPatcher;
  plugins: PluginSet;
  /** Whether this replica works the shard now (its Lease, renewed in time): tasks start only then. */
  owns: (shard: number) => boolean;
  /** Whether it holds the shard's Lease, paused or not: its TaskSets are kept then. */
  holds: (shard: number) => boolean;
  shards: number;
  maxInFlight: number;
  /** Most tasks of one namespace executing at once. */
  maxPerNamespace: number;
  http: Omit<HttpTemplateOptions, 'secret'>;
  /** The TaskSet collections watched (one per namespace, or the cluster's). */
  collections: string[];
  /** The label selector of the watch and the lists (query form). */
  query: string;
  /** Longest a shard handover waits for the shard's running tasks. */
  handoverTimeoutMs: number;
  /** Longest it then waits for the controller to take the results written (AGENT_HANDOVER_RESULT_WAIT). */
  resultWaitMs: number;
  logger: PluginLogger;
  metrics: AgentMetrics;
  /** Cancels the remote work of tasks a stopped workflow took away. */
  stopped: StoppedTasks;
}

/** What the agent remembers of one workflow's tasks (Argo's agent: one process per workflow). */
interface WorkflowRun {
  uid: string;
  /** The Workflow's creator labels, read once (a failed read is tried again by the next task). */
  creator?: Promise<Record<string, string>>;
  considered: Set<string>;
  /** When each task was first seen here. */
  seen: Map<string, number>;
  requeues: Map<string, LongTimer>;
  plugins: PluginCaller[];
  /** Until the Workflow has said which of the tasks found at first sight are fulfilled, nothing is offered. */
  checked: boolean;
  /** Tasks of a kind this agent does not run (neither plugin nor HTTP), logged once and left alone. */
  foreign: Set<string>;
  /** Tasks called here whose last result was not final: their remote work may still be going. */
  unfinished: Set<string>;
  /** The calls running now. */
  inFlight: Map<string, Promise<void>>;
}

interface WorkflowNodes extends WorkflowLabels {
  status?: { nodes?: Record<string, { phase?: string } | undefined> };
}

export class TaskSetAgent implements ShardOwner {
  readonly queue: TaskQueue;
  private readonly runs = new Map<string, WorkflowRun>();
  private promoting = false;
  private stopping = false;
  /**
   * Shards just taken whose TaskSets are being listed: their watch events wait for the list. A watch that lags
   * behind brings copies older than the list's (a task the previous owner finished, without its result), and
   * offered from such a copy before the list arrives, the task ran twice.
   */
  private readonly listing = new Map<number, Array<WatchEvent<TaskSetObject>>>();
  /**
   * Shards this agent was told it holds. The Leases are taken one after the other and announced together: a
   * shard's events before its announcement are left to the list that follows it.
   */
  private readonly announced = new Set<number>();

  constructor(private readonly options: TaskSetAgentOptions) {
    this.queue = new TaskQueue(
      options.maxInFlight,
      (key, nodeId) => this.runTask(key, nodeId),
      options.maxPerNamespace,
    );
  }

  /** A watch event of a TaskSet, from any shard. */
  onEvent(event: WatchEvent<TaskSetObject>): void {
    const object = event.object;
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name ?? '';
    const key = taskSetKey(namespace, name);
    if (event.type === 'DELETED' || isCompleted(object)) {
      // A watch that the completed label takes the TaskSet out of is sent it as it was, tasks included: every
      // task still running here may have been stopped, and the Workflow says which.
      this.cancelStopped(key, {});
      return this.forget(key);
    }
    const shard = shardOf(namespace, name, this.options.shards);
    if (!this.options.holds(shard) || !this.announced.has(shard)) return;
    const waiting = this.listing.get(shard);
    if (waiting) waiting.push(event);
    else this.take(object, shard);
  }

  /** Shards just taken: their TaskSets are read now (the watch only brings changes), then what the watch brought meanwhile, if newer. */
  acquired(shards: number[]): void {
    for (const shard of shards) this.announced.add(shard);
    const taken = shards.filter((shard) => !this.listing.has(shard));
    for (const shard of taken) this.listing.set(shard, []);
    void this.readShards(new Set(shards)).finally(() => {
      for (const shard of taken) {
        const events = this.listing.get(shard) ?? [];
        this.listing.delete(shard);
        for (const event of events) this.onEvent(event);
      }
    });
  }

  resumed(shards: number[]): void {
    for (const shard of shards)
      for (const key of this.options.store.keysOfShard(shard)) {
        const run = this.runs.get(key);
        if (run?.checked) this.offer(key, run);
      }
  }

  lost(shards: number[]): void {
    for (const shard of shards) this.announced.delete(shard);
    for (const key of this.options.store.dropShards(new Set(shards))) this.forget(key, false);
  }

  /** A shard handed to another replica: no new tasks, the running ones finish and their results are written. */
  async releasing(shard: number): Promise<void> {
    this.announced.delete(shard);
    const keys = this.options.store.keysOfShard(shard);
    for (const key of keys) this.queue.drop(key);
    const deadline = performance.now() + this.options.handoverTimeoutMs;
    await this.queue.settle(keys, this.options.handoverTimeoutMs);
    await this.options.patcher.flush(keys);
    await this.untilTaken(keys, deadline - performance.now());
    this.options.store.dropShards(new Set([shard]));
    for (const key of keys) this.forget(key, false);
  }

  /**
   * Waits, at most `withinMs` and AGENT_HANDOVER_RESULT_WAIT, until the controller has taken the results this
   * replica knows final of these TaskSets (or all): their tasks have left the spec. It takes a result in three
   * writes, the TaskSet's status without it, the TaskSet's spec without the task, then the Workflow; a replica
   * taking the TaskSet between the first two would see a finished task as new, and the Workflow would not say
   * otherwise yet.
   */
  async untilTaken(keys: string[] = [...this.runs.keys()], withinMs = Infinity): Promise<void> {
    const limitMs = Math.min(this.options.resultWaitMs, withinMs);
    if (!(limitMs > 0)) return;
    const deadline = performance.now() + limitMs;
    let waiting = keys.flatMap((key) => {
      const held = this.options.store.get(key);
      const run = this.runs.get(key);
      if (!held || !run) return [];
      const nodes = Object.keys(held.tasks).filter(
        (nodeId) => run.considered.has(nodeId) && !run.unfinished.has(nodeId) && !run.foreign.has(nodeId),
      );
      return nodes.length > 0 ? [{ held, nodes }] : [];
    });
    while (waiting.length > 0 && performance.now() < deadline) {
      const still: typeof waiting = [];
      for (const entry of waiting) {
        const { namespace, name } = entry.held;
        const object = await this.options.client
          .find<TaskSetObject>(taskSetPath(namespace, name))
          .catch(() => undefined); // unreadable: not waited for
        const tasks = object && !isCompleted(object) ? (object.spec?.tasks ?? {}) : {};
        if (entry.nodes.some((nodeId) => nodeId in tasks)) still.push(entry);
      }
      waiting = still;
      if (waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, TAKEN_POLL_MS));
    }
    if (waiting.length > 0)
      this.options.logger.info(
        { taskSets: waiting.map((entry) => entry.held.key) },
        'handed over before the controller took their results',
      );
  }

  /** Graceful stop: no new task starts; answers whether every running one finished in time. */
  async stop(timeoutMs: number): Promise<boolean> {
    this.stopping = true;
    this.queue.pause();
    for (const run of this.runs.values()) for (const timer of run.requeues.values()) timer.clear();
    return this.queue.settle(this.queue.runningKeys(), timeoutMs);
  }

  private take(object: TaskSetObject, shard: number): void {
    const { store, logger } = this.options;
    const held = holdTaskSet(object, shard);
    const current = store.get(held.key);
    if (current?.uid === held.uid && olderResourceVersion(held.resourceVersion, current.resourceVersion))
      return;
    if (store.put(held) === 'deferred') {
      logger.debug(
        { namespace: held.namespace, workflow: held.name, bytes: store.bytes },
        'TaskSet waits for memory',
      );
      return;
    }
    let run = this.runs.get(held.key);
    if (run && run.uid !== held.uid) {
      // Same name, another workflow.
      this.forget(held.key, false);
      store.put(held);
      run = undefined;
    }
    if (!run) {
      run = {
        uid: held.uid,
        considered: new Set(),
        seen: new Map(),
        requeues: new Map(),
        plugins: this.options.plugins.forWorkflow(),
        checked: false,
        foreign: new Set(),
        unfinished: new Set(),
        inFlight: new Map(),
      };
      this.runs.set(held.key, run);
      const pending = Object.keys(held.tasks).filter((nodeId) => !held.finals.has(nodeId));
      if (pending.length > 0) {
        void this.skipFulfilled(held, pending, run).then(() => this.offer(held.key, run!));
      } else run.checked = true;
    }
    // Tasks the controller removed (their results reached the workflow, or it stopped them) are forgotten.
    if (current) this.cancelStopped(held.key, held.tasks, current);
    for (const nodeId of run.seen.keys())
      if (!(nodeId in held.tasks)) {
        run.seen.delete(nodeId);
        run.unfinished.delete(nodeId);
        run.considered.delete(nodeId);
        run.requeues.get(nodeId)?.clear();
        run.requeues.delete(nodeId);
      }
    const now = Date.now();
    for (const nodeId of Object.keys(held.tasks)) if (!run.seen.has(nodeId)) run.seen.set(nodeId, now);
    // A node final once stays final (a retry is another node): when the controller clears its result, one patch
    // before it removes the task, the task must not look new. A result another replica wrote before this one
    // took the shard is remembered here only.
    for (const nodeId of held.finals) if (nodeId in held.tasks) run.considered.add(nodeId);
    if (run.checked) this.offer(held.key, run);
  }

  /**
   * Queues the TaskSet's tasks that are neither final nor considered. A task of another kind (Argo's open PR
   * #16372 puts resource templates in the TaskSet) is for whatever agent runs it: neither failed nor written.
   */
  private offer(key: string, run: WorkflowRun): void {
    const held = this.options.store.get(key);
    if (!held || this.runs.get(key) !== run) return;
    for (const [nodeId, template] of Object.entries(held.tasks)) {
      if (held.finals.has(nodeId) || run.considered.has(nodeId) || run.foreign.has(nodeId)) continue;
      const type = templateType(template);
      if (type === 'HTTP' || type === 'Plugin') {
        this.queue.push(key, nodeId);
        continue;
      }
      run.foreign.add(nodeId);
      this.options.logger.info(
        { namespace: held.namespace, workflow: held.name, node: nodeId, type },
        'task left for another agent: neither a plugin nor an HTTP template',
      );
    }
  }

  /**
   * Marks as considered the tasks the Workflow already holds as fulfilled. When the Workflow cannot tell (not
   * readable, its nodes offloaded to a database), every task is offered: the plugins are idempotent.
   */
  private async skipFulfilled(held: HeldTaskSet, nodeIds: string[], run: WorkflowRun): Promise<void> {
    const { namespace, name } = held;
    try {
      const workflow = await this.readWorkflow(held);
      run.creator ??= Promise.resolve(creatorLabels(workflow, held.workflowUid));
      const nodes = workflow.status?.nodes ?? {};
      const fulfilled = nodeIds.filter((nodeId) => isFinalPhase(nodes[nodeId]?.phase));
      for (const nodeId of fulfilled) run.considered.add(nodeId);
      if (fulfilled.length > 0)
        this.options.logger.info(
          { namespace, workflow: name, nodes: fulfilled },
          'tasks fulfilled in the Workflow before this replica took the TaskSet: not offered again',
        );
    } catch (err) {
      this.options.logger.debug(
        { namespace, workflow: name, err },
        'Workflow not read; every task is offered',
      );
    } finally {
      run.checked = true;
    }
  }

  /**
   * The tasks this replica was running that are not in `remaining` any more: if their workflow was stopped,
   * their remote work is cancelled, while this replica holds the shard (a shard lost or handed over cancels
   * nothing).
   */
  private cancelStopped(
    key: string,
    remaining: Record<string, unknown>,
    held: HeldTaskSet | undefined = this.options.store.get(key),
  ): void {
    const run = this.runs.get(key);
    if (!run || !held || run.uid !== held.uid) return;
    const left: LeftTask[] = [];
    for (const nodeId of run.unfinished) {
      const template = held.tasks[nodeId];
      if (nodeId in remaining || !template) continue;
      run.unfinished.delete(nodeId);
      left.push({ nodeId, template, inFlight: run.inFlight.get(nodeId) });
    }
    if (left.length === 0) return;
    this.options.patcher.forgetTasks(
      key,
      left.map((task) => task.nodeId),
    );
    const { shard } = held;
    void this.options.stopped.cancelStopped(
      {
        namespace: held.namespace,
        name: held.name,
        uid: held.workflowUid,
        plugins: run.plugins,
        owned: () => this.options.owns(shard) && this.announced.has(shard),
      },
      left,
    );
  }

  private readWorkflow(held: HeldTaskSet): Promise<WorkflowNodes> {
    const { namespace, name } = held;
    return this.options.client.get<WorkflowNodes>(
      `/apis/argoproj.io/v1alpha1/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(name)}`,
    );
  }

  /** The Workflow's creator labels for a plugin task: {} when it cannot be read (a gate then fails closed). */
  private creatorOf(held: HeldTaskSet, run: WorkflowRun): Promise<Record<string, string>> {
    run.creator ??= this.readWorkflow(held).then(
      (workflow) => creatorLabels(workflow, held.workflowUid),
      (err: unknown) => {
        this.options.logger.debug(
          { namespace: held.namespace, workflow: held.name, err },
          'Workflow not read: its creator is not known to the plugins',
        );
        run.creator = undefined;
        return {};
      },
    );
    return run.creator;
  }

  private forget(key: string, fromStore = true): void {
    const run = this.runs.get(key);
    if (run) for (const timer of run.requeues.values()) timer.clear();
    this.runs.delete(key);
    this.queue.drop(key);
    this.options.patcher.forget(key);
    if (fromStore && this.options.store.remove(key)) void this.promote();
  }

  /** One task, as Argo's taskWorker runs it. */
  private async runTask(key: string, nodeId: string): Promise<void> {
    const taskSet = this.options.store.get(key);
    const run = this.runs.get(key);
    if (this.stopping || !taskSet || !run || !this.options.owns(taskSet.shard)) return;
    const template = taskSet.tasks[nodeId];
    if (!template || taskSet.finals.has(nodeId) || run.considered.has(nodeId)) return;
    run.considered.add(nodeId);
    run.unfinished.add(nodeId);
    let ended!: () => void;
    run.inFlight.set(nodeId, new Promise<void>((resolve) => (ended = resolve)));
    try {
      await this.execute(key, nodeId, taskSet, run, template);
    } finally {
      run.inFlight.delete(nodeId);
      ended();
    }
  }

  private async execute(
    key: string,
    nodeId: string,
    taskSet: HeldTaskSet,
    run: WorkflowRun,
    template: Record<string, unknown>,
  ): Promise<void> {
    const log = this.options.logger.child({
      namespace: taskSet.namespace,
      workflow: taskSet.name,
      node: nodeId,
    });
    const started = performance.now();
    // Ownership is asked again right before each request goes out, not only when the task was taken: between
    // the two, the process may have been paused (SIGSTOP, a long GC) and the shard gone to another replica,
    // which then runs the step too.
    let notSent: string | undefined;
    const mayWrite = (): string | undefined => {
      if (this.stopping || this.runs.get(key) !== run || !this.options.owns(taskSet.shard))
        notSent = 'this replica no longer works the shard of the TaskSet';
      return notSent;
    };
    // A plugin learns the Workflow's creator from the agent, never from the body it was given.
    const labels = template.plugin != null ? await this.creatorOf(taskSet, run) : undefined;
    // The read took time: the shard may have gone to another replica meanwhile (a pause, a lost Lease).
    if (labels && mayWrite()) {
      run.considered.delete(nodeId);
      return;
    }
    const outcome = await processTask(
      template,
      {
        name: taskSet.name,
        namespace: taskSet.namespace,
        uid: taskSet.workflowUid,
        ...(labels && { labels }),
      },
      run.plugins,
      { ...this.options.http, secret: namespaceSecrets(this.options.client, taskSet.namespace) },
      mayWrite,
    );
    if (notSent) {
      // Left for the shard's owner (this replica again, if its shards resume): no result is written from here.
      run.considered.delete(nodeId);
      log.info({ reason: notSent }, 'task not sent');
      return;
    }
    const { result, requeueMs } = outcome;
    log.info(
      {
        phase: result.phase,
        ...(result.message && { message: result.message }),
        ...(requeueMs > 0 && { requeueMs }),
        ...(outcome.plugin && { plugin: outcome.plugin }),
        ms: Math.round(performance.now() - started),
      },
      'task done',
    );
    if (isFinalPhase(result.phase)) run.unfinished.delete(nodeId);
    // The TaskSet, or this task, went meanwhile (a stopped workflow: the controller has ended the node).
    if (this.runs.get(key) !== run || !(nodeId in (this.options.store.get(key)?.tasks ?? {}))) return;
    if (result.phase)
      this.options.patcher.add(key, taskSet.namespace, taskSet.name, nodeId, result, run.seen.get(nodeId));
    if (requeueMs > 0) {
      run.requeues.set(
        nodeId,
        setLongTimeout(() => {
          run.requeues.delete(nodeId);
          run.considered.delete(nodeId);
          if (this.runs.get(key) === run) this.queue.push(key, nodeId);
        }, requeueMs),
      );
    }
  }

  /** Reads the TaskSets of the given shards from the API and takes those not completed. */
  private async readShards(shards: Set<number>): Promise<void> {
    for (const collection of this.options.collections) {
      try {
        const { items } = await this.options.client.list<TaskSetObject>(collection, this.options.query);
        for (const object of items) {
          const shard = shardOf(
            object.metadata.namespace ?? '',
            object.metadata.name ?? '',
            this.options.shards,
          );
          if (shards.has(shard) && this.options.holds(shard) && !isCompleted(object))
            this.take(object, shard);
        }
      } catch (err) {
        this.options.logger.warn({ err, collection }, 'could not read the TaskSets of new shards');
      }
    }
  }

  /** Reads TaskSets that waited for memory, oldest first, while there is room. */
  private async promote(): Promise<void> {
    if (this.promoting) return;
    this.promoting = true;
    try {
      for (let next = this.options.store.nextDeferred(); next; next = this.options.store.nextDeferred()) {
        const object = await this.options.client.find<TaskSetObject>(taskSetPath(next.namespace, next.name));
        const key = taskSetKey(next.namespace, next.name);
        if (!object || isCompleted(object) || !this.options.holds(next.shard)) {
          this.options.store.remove(key);
          continue;
        }
        this.take(object, next.shard);
        if (!this.options.store.get(key)) break; // still no room
      }
    } catch (err) {
      this.options.logger.warn({ err }, 'could not read a waiting TaskSet');
    } finally {
      this.promoting = false;
    }
  }

  /** Held TaskSets, their tasks waiting and running, for the metrics. */
  stats(): { taskSets: number; deferred: number; waiting: number; inFlight: number; bytes: number } {
    return {
      taskSets: this.options.store.size,
      deferred: this.options.store.waiting,
      waiting: this.queue.queued,
      inFlight: this.queue.inFlight,
      bytes: this.options.store.bytes,
    };
  }
}
