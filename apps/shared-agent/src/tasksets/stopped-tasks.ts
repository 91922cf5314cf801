// Argo tells no plugin that a workflow was stopped (argo-workflows#10476). On `argo stop` / `argo terminate` the
// controller sets the Workflow's spec.shutdown, fails each TaskSet node it stops with "Stopped with strategy
// '<Stop|Terminate>'" (operator.go failNodesWithoutCreatedPodsAfterDeadlineOrShutdown; an exit handler's nodes
// run on under Stop) and removes the task from the TaskSet. The replica that was running such a task sees it go
// and asks the plugins hosted in process to cancel its remote work; the node stays as the controller ended it.
import { marshalExecuteTemplateArgs, type KubeClient, type PluginCaller } from '@app/argo-agent';
import { isFinalPhase } from '@app/contract';
import type { PluginLogger } from '@app/plugin-kit';
import type { AgentMetrics } from '../observe/metrics.js';

export const SHUTDOWN_STRATEGIES = new Set(['Stop', 'Terminate']);
const STOPPED_MESSAGE = 'Stopped with strategy ';

/** A task that left its TaskSet while this replica was running it. */
export interface LeftTask {
  nodeId: string;
  template: Record<string, unknown>;
  /** The call running now, if one is: its start must be known before the cancel. */
  inFlight?: Promise<void>;
}

export interface StoppedWorkflow {
  namespace: string;
  name: string;
  uid: string;
  plugins: readonly PluginCaller[];
  /** Whether this replica holds the workflow's shard now (false for a while when a renewal is late). */
  owned: () => boolean;
}

interface WorkflowShutdown {
  metadata?: { uid?: string };
  spec?: { shutdown?: string };
  status?: { nodes?: Record<string, { phase?: string; message?: string } | undefined> };
}

/** How often, and how far apart, a stopping Workflow is read again until the controller has ended the nodes. */
const RECHECKS = 30;
const RECHECK_MS = 1000;
/** Most cancels remembered, so that a task is cancelled once by this replica (the plugin's ledger holds it too). */
const REMEMBERED = 10_000;

export class StoppedTasks {
  private readonly done = new Set<string>();

  constructor(
    private readonly client: KubeClient,
    private readonly logger: PluginLogger,
    private readonly metrics: AgentMetrics,
  ) {}

  /**
   * Cancels the remote work of those of `tasks` the controller stopped: the Workflow's spec.shutdown is set and
   * its node says "Stopped with strategy …". The controller writes the TaskSet before the Workflow, so a node
   * not final yet is read again, every `RECHECK_MS`, a bounded number of times, and so are tasks whose shard this
   * replica does not hold at that moment (a renewal late under load). A Workflow without
   * spec.shutdown, a node ended otherwise, a Workflow that cannot be read (deleted): no cancel. Never throws.
   */
  async cancelStopped(workflow: StoppedWorkflow, tasks: LeftTask[]): Promise<void> {
    let pending = tasks.filter((task) => !this.done.has(`${workflow.uid}/${task.nodeId}`));
    if (!workflow.plugins.some((plugin) => plugin.cancel)) return;
    for (let read = 0; pending.length > 0 && read < RECHECKS; read++) {
      if (read > 0) await new Promise((r) => setTimeout(r, RECHECK_MS));
      const current = await this.read(workflow);
      const strategy = current?.spec?.shutdown ?? '';
      if (current?.metadata?.uid !== workflow.uid || !SHUTDOWN_STRATEGIES.has(strategy)) return;
      const nodes = current.status?.nodes ?? {};
      // Sent only while the shard is held here; a renewal that is late leaves the tasks for the next look.
      if (!workflow.owned()) continue;
      const ended = pending.filter((task) => isFinalPhase(nodes[task.nodeId]?.phase));
      pending = pending.filter((task) => !ended.includes(task));
      const stopped = ended.filter((task) => nodes[task.nodeId]?.message?.startsWith(STOPPED_MESSAGE));
      await Promise.all(stopped.map((task) => this.cancel(workflow, task, strategy)));
    }
    if (pending.length > 0)
      this.logger.warn(
        { namespace: workflow.namespace, workflow: workflow.name, nodes: pending.map((t) => t.nodeId) },
        'workflow stopped, but its nodes did not end while this replica held their shard: not cancelled',
      );
  }

  private async read(workflow: StoppedWorkflow): Promise<WorkflowShutdown | undefined> {
    const { namespace, name } = workflow;
    try {
      return await this.client.get<WorkflowShutdown>(
        `/apis/argoproj.io/v1alpha1/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(name)}`,
      );
    } catch (err) {
      this.logger.debug({ namespace, workflow: name, err }, 'Workflow not read: its tasks are not cancelled');
      return undefined;
    }
  }

  private async cancel(workflow: StoppedWorkflow, task: LeftTask, strategy: string): Promise<void> {
    const id = `${workflow.uid}/${task.nodeId}`;
    if (this.done.has(id)) return;
    this.remember(id);
    await task.inFlight?.catch(() => undefined);
    const body = marshalExecuteTemplateArgs(workflow, task.template);
    let sent = false;
    for (const plugin of workflow.plugins) if (plugin.cancel && (await plugin.cancel(body))) sent = true;
    this.metrics.stopCancels.inc({ outcome: sent ? 'sent' : 'none' });
    this.logger.info(
      {
        namespace: workflow.namespace,
        workflow: workflow.name,
        node: task.nodeId,
        strategy,
        cancelled: sent,
      },
      sent
        ? "workflow stopped: the task's remote work was cancelled"
        : 'workflow stopped: the task had no remote work to cancel',
    );
  }

  private remember(id: string): void {
    this.done.add(id);
    if (this.done.size > REMEMBERED) this.done.delete(this.done.values().next().value!);
  }
}
