// One task of a WorkflowTaskSet as Argo's agent works it (workflow/executor/agent.go processTask and the
// part of taskWorker that turns its outcome into the node result and the requeue).
import { executePluginTemplate } from './agent-dispatch.js';
import type { WriteGuard } from './go-http-client.js';
import type { ArgoNodeResult } from './argo-reply.js';
import { marshalExecuteTemplateArgs } from './go-json.js';
import { executeHttpTemplate, type HttpTemplate, type HttpTemplateOptions } from './http-template.js';
import type { PluginCaller } from './plugin-rpc-client.js';

/** The workflow a task belongs to, as the agent tells the plugins (ExecuteTemplateArgs.workflow.metadata). */
export interface TaskWorkflow {
  name: string;
  namespace: string;
  uid: string;
  /** Labels the agent passes on (the shared agent: the Workflow's creator labels); Argo's agent sends none. */
  labels?: Record<string, string>;
}

export interface TaskOutcome {
  /** The node result; Argo sends nothing to the TaskSet when its phase is empty. */
  result: ArgoNodeResult;
  /** Call the task again after this long (ms); 0: never. */
  requeueMs: number;
  /** The plugin whose reply carried the node (plugin templates). */
  plugin?: string;
}

const TEMPLATE_TYPES: Array<[string, string]> = [
  ['container', 'Container'],
  ['containerSet', 'ContainerSet'],
  ['steps', 'Steps'],
  ['dag', 'DAG'],
  ['script', 'Script'],
  ['resource', 'Resource'],
  ['data', 'Data'],
  ['suspend', 'Suspend'],
  ['http', 'HTTP'],
  ['plugin', 'Plugin'],
];

/** wfv1.Template.GetType(): the first of its kinds it has, "" for none. */
export function templateType(template: Record<string, unknown>): string {
  return TEMPLATE_TYPES.find(([field]) => template[field] != null)?.[1] ?? '';
}

/**
 * processTask: an HTTP template through executeHTTPTemplate, a plugin template through the plugins in order
 * (executePluginTemplate); an error of either fails the node with its text; any other template is the
 * agent's own error (`error processing task: agent cannot execute: unknown task type: …`).
 */
export async function processTask(
  template: Record<string, unknown>,
  workflow: TaskWorkflow,
  plugins: readonly PluginCaller[],
  http: HttpTemplateOptions,
  /** Asked just before each request of the task goes out (not Argo's: one agent per workflow owns its tasks). */
  mayWrite?: WriteGuard,
): Promise<TaskOutcome> {
  try {
    if (template.http != null) {
      const options = { ...http, mayWrite };
      return { result: await executeHttpTemplate(template.http as HttpTemplate, options), requeueMs: 0 };
    }
    if (template.plugin != null) {
      const body = marshalExecuteTemplateArgs(workflow, template);
      const dispatched = await executePluginTemplate(plugins, body, mayWrite);
      return { result: dispatched.node, requeueMs: dispatched.requeueMs, plugin: dispatched.plugin };
    }
  } catch (err) {
    return { result: { phase: 'Failed', message: (err as Error).message }, requeueMs: 0 };
  }
  return {
    result: {
      phase: 'Error',
      message: `error processing task: agent cannot execute: unknown task type: ${templateType(template)}`,
    },
    requeueMs: 0,
  };
}
