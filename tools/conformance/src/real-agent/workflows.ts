// The kit's workflows under the real agent, one per check, and how each ended as the controller shows it.
import { isWorkflowDone } from '@app/contract';
import type { StackState } from '../../../argo-stack/src/stack.js';
import { badConfigs, sortedKeys } from '../requests.js';
import { kubectl } from './stack.js';

export const CHECK_LABEL = 'conformance.executor-plugins.dev/check';
/** The key of a template no plugin of the namespace serves. */
export const FOREIGN_KEY = 'conformance-other';
/** What the agent makes of a template every plugin declined (or was disabled for by a 404). */
export const NOT_EXECUTED = 'no plugin executed the template';

export interface CheckWorkflow {
  check: 'example' | 'foreign' | 'bad-config';
  /** What the workflow tries, in words (the evidence's `what`). */
  label: string;
  spec: Record<string, unknown>;
}

const pluginTemplate = (name: string, key: string, body: unknown) => ({ name, plugin: { [key]: body } });

/** The example body alone; a foreign template, then an own one; each bad body alone. */
export function checkWorkflows(key: string, config: unknown): CheckWorkflow[] {
  const own = sortedKeys(config ?? {});
  const out: CheckWorkflow[] = [];
  if (config !== undefined)
    out.push({
      check: 'example',
      label: `the example body (plugin: {${key}: ...})`,
      spec: { entrypoint: 'main', templates: [pluginTemplate('main', key, own)] },
    });
  out.push({
    check: 'foreign',
    label: `a template for "${FOREIGN_KEY}", then one of its own`,
    spec: {
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [
            [{ name: 'foreign', template: 'foreign', continueOn: { failed: true } }],
            [{ name: 'own', template: 'own' }],
          ],
        },
        pluginTemplate('foreign', FOREIGN_KEY, {}),
        pluginTemplate('own', key, own),
      ],
    },
  });
  for (const bad of badConfigs(config))
    out.push({
      check: 'bad-config',
      label: `own template with ${bad.label}`,
      spec: { entrypoint: 'main', templates: [pluginTemplate('main', key, bad.body)] },
    });
  return out;
}

export interface NodeEnd {
  phase: string;
  message?: string;
}

export interface WorkflowEnd {
  name: string;
  phase: string;
  message?: string;
  /** Plugin nodes by display name (`main` for the root of a one-template workflow). */
  nodes: Record<string, NodeEnd>;
  seconds: number;
  /** Still running after the poll timeout (then deleted). */
  timedOut: boolean;
}

interface WorkflowJson {
  metadata: { name: string };
  status?: {
    phase?: string;
    message?: string;
    nodes?: Record<string, { displayName: string; type: string; phase: string; message?: string }>;
  };
}

export async function submit(state: StackState, namespace: string, workflow: CheckWorkflow): Promise<string> {
  const object = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: `conformance-${workflow.check}-`, labels: { [CHECK_LABEL]: workflow.check } },
    spec: workflow.spec,
  };
  return (
    await kubectl(
      state,
      ['create', '-n', namespace, '-o', 'jsonpath={.metadata.name}', '-f', '-'],
      JSON.stringify(object),
    )
  ).trim();
}

/** Follows the workflow to its end; past `timeoutMs` it is deleted and answered as it was. */
export async function follow(
  state: StackState,
  namespace: string,
  name: string,
  timeoutMs: number,
): Promise<WorkflowEnd> {
  const started = Date.now();
  for (;;) {
    const wf = JSON.parse(
      await kubectl(state, ['get', 'workflow', '-n', namespace, name, '-o', 'json']),
    ) as WorkflowJson;
    const phase = wf.status?.phase ?? 'Pending';
    const timedOut = !isWorkflowDone(phase) && Date.now() - started > timeoutMs;
    if (isWorkflowDone(phase) || timedOut) {
      if (timedOut) await kubectl(state, ['delete', 'workflow', '-n', namespace, name, '--wait=false']);
      const nodes: Record<string, NodeEnd> = {};
      for (const node of Object.values(wf.status?.nodes ?? {}))
        if (node.type === 'Plugin')
          nodes[node.displayName === name ? 'main' : node.displayName] = {
            phase: node.phase,
            message: node.message,
          };
      return {
        name,
        phase,
        message: wf.status?.message,
        nodes,
        seconds: Math.round((Date.now() - started) / 1000),
        timedOut,
      };
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}
