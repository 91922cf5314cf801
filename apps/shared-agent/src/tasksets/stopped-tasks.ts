// Argo tells no plugin that a workflow was stopped (argo-workflows#10476). On `argo stop` / `argo terminate` the
// controller sets the Workflow's spec.shutdown, fails each TaskSet node it stops with "Stopped with strategy
// '<Stop|Terminate>'" (operator.go failNodesWithoutCreatedPodsAfterDeadlineOrShutdown; an exit handler's nodes
// run on under Stop) and removes the task from the TaskSet. The replica that was running such a task sees it go
// and asks the plugins hosted in process to cancel its remote work; the node stays as the controller ended it.
import { marshalExecuteTemplateArgs, type KubeClient, type PluginCaller } from '@app/argo-agent';
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
}

interface WorkflowShutdown {
  metadata?: { uid?: string };
  spec?: { shutdown?: string };
  status?: { nodes?: Record<string, { phase?: string; message?: string } | undefined> };
}

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
   * its node says "Stopped with strategy …". A task that merely finished, or a Workflow that cannot be read
   * (deleted), cancels nothing. Never throws.
   */
  async cancelStopped(workflow: StoppedWorkflow, tasks: LeftTask[]): Promise<void> {
    const pending = tasks.filter((task) => !this.done.has(`${workflow.uid}/${task.nodeId}`));
    if (pending.length === 0 || !workflow.plugins.some((plugin) => plugin.cancel)) return;
    const { namespace, name } = workflow;
    let current: WorkflowShutdown;
    try {
      current = await this.client.get<WorkflowShutdown>(
        `/apis/argoproj.io/v1alpha1/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(name)}`,
      );
    } catch (err) {
      this.logger.debug({ namespace, workflow: name, err }, 'Workflow not read: its tasks are not cancelled');
      return;
    }
    const strategy = current.spec?.shutdown ?? '';
    if (current.metadata?.uid !== workflow.uid || !SHUTDOWN_STRATEGIES.has(strategy)) return;
    const nodes = current.status?.nodes ?? {};
    const stopped = pending.filter((task) => nodes[task.nodeId]?.message?.startsWith(STOPPED_MESSAGE));
    await Promise.all(stopped.map((task) => this.cancel(workflow, task, strategy)));
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
