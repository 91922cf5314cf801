// The local agent and the real one side by side: what each made of a workflow (its phase and message, each
// plugin node's phase, message and outputs) and the calls its plugin saw, put in one comparable shape, and
// the differences between the two in words.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowResult } from '@app/testing';
import type { StackState } from '../../../tools/argo-stack/src/stack.js';
import { kubeClient, waitForWorkflow, type WorkflowOutcome } from './cluster.js';

/** One request as the plugin saw it: when, and whether it was a template.execute call. */
export interface SeenRequest {
  t: number;
  execute: boolean;
}

export interface NodeOutcome {
  phase: string;
  message?: string;
  outputs?: unknown;
}

export interface AgentOutcome {
  phase: string;
  message?: string;
  /** Plugin nodes by display name (the root's is `(root)`). */
  nodes: Record<string, NodeOutcome>;
  /** Requests the plugin(s) saw for this workflow, in order. */
  requests: SeenRequest[];
  /**
   * The agent stopped calling a node whose last reply asked to be called again (the local agent's cap on
   * requeues after a final reply, or the real workflow ending): its calls are compared within the window
   * both agents were calling, not in total.
   */
  cutShort?: boolean;
}

/** Text that differs by construction: workflow names (generated) and the plugin's port. */
function normalize(text: string | undefined, workflow: string): string | undefined {
  if (text === undefined || text === '') return undefined;
  return text
    .split(workflow)
    .join('<workflow>')
    .replace(/localhost:\d+/g, 'localhost:<port>');
}

const EXECUTE = '/api/v1/template.execute';

export function localOutcome(
  result: WorkflowResult,
  requests: SeenRequest[],
  options: { cutShort?: boolean } = {},
): AgentOutcome {
  const nodes: AgentOutcome['nodes'] = {};
  for (const node of result.nodes.filter((n) => n.type === 'Plugin'))
    nodes[node.displayName === result.name ? '(root)' : node.displayName] = {
      phase: node.phase,
      message: normalize(node.message, result.name),
      outputs: node.outputs,
    };
  return {
    phase: result.phase,
    message: normalize(result.message, result.name),
    nodes,
    requests,
    cutShort: options.cutShort,
  };
}

export function realOutcome(
  workflow: WorkflowOutcome,
  requests: SeenRequest[],
  options: { cutShort?: boolean } = {},
): AgentOutcome {
  const nodes: AgentOutcome['nodes'] = {};
  for (const node of Object.values(workflow.nodes).filter((n) => n.type === 'Plugin'))
    nodes[node.displayName === workflow.name ? '(root)' : node.displayName] = {
      phase: node.phase,
      message: normalize(node.message, workflow.name),
      outputs: node.outputs,
    };
  return {
    phase: workflow.phase,
    message: normalize(workflow.message, workflow.name),
    nodes,
    requests,
    cutShort: options.cutShort,
  };
}

/** JSON with object keys sorted: the API server hands objects back in its own key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

const show = (value: unknown): string => (value === undefined ? '-' : canonical(value));

/** Requests within `windowMs` of the first one. */
function within(requests: SeenRequest[], windowMs: number): SeenRequest[] {
  const first = requests[0]?.t ?? 0;
  return requests.filter((r) => r.t - first <= windowMs);
}

const span = (requests: SeenRequest[]): number =>
  requests.length === 0 ? 0 : requests[requests.length - 1].t - requests[0].t;

/** Slack on a window's end: retries and requeues of the two agents land within this of each other. */
const WINDOW_SLACK_MS = 500;

/** Each way the two outcomes differ, in words (`local … / real …`); empty when they agree. */
export function differences(local: AgentOutcome, real: AgentOutcome): string[] {
  const out: string[] = [];
  const field = (what: string, a: unknown, b: unknown): void => {
    if (show(a) !== show(b)) out.push(`${what}: local ${show(a)} / real ${show(b)}`);
  };
  field('workflow phase', local.phase, real.phase);
  field('workflow message', local.message, real.message);
  for (const name of [...new Set([...Object.keys(local.nodes), ...Object.keys(real.nodes)])].sort()) {
    const a = local.nodes[name];
    const b = real.nodes[name];
    if (!a || !b) {
      out.push(`node ${name}: local ${a ? a.phase : 'none'} / real ${b ? b.phase : 'none'}`);
      continue;
    }
    field(`node ${name} phase`, a.phase, b.phase);
    field(`node ${name} message`, a.message, b.message);
    field(`node ${name} outputs`, a.outputs, b.outputs);
  }
  const cut = local.cutShort || real.cutShort;
  const windowMs = cut ? Math.min(span(local.requests), span(real.requests)) + WINDOW_SLACK_MS : Infinity;
  const counts = (o: AgentOutcome) => {
    const seen = within(o.requests, windowMs);
    return { requests: seen.length, calls: seen.filter((r) => r.execute).length };
  };
  const what = cut ? `within ${(windowMs / 1000).toFixed(1)} s of the first` : 'in all';
  field(`plugin requests ${what}`, counts(local).requests, counts(real).requests);
  field(`template.execute calls ${what}`, counts(local).calls, counts(real).calls);
  return out;
}

/** One line for a report: the label, and either `same` with the outcome or each difference. */
export function comparisonLine(label: string, local: AgentOutcome, real: AgentOutcome): string {
  const diff = differences(local, real);
  if (diff.length > 0) return `DIFF  ${label}: ${diff.join('; ')}`;
  const calls = (o: AgentOutcome) => o.requests.filter((r) => r.execute).length;
  const counted =
    calls(local) === calls(real)
      ? `${calls(local)} call(s)`
      : `${calls(local)} call(s) local, ${calls(real)} real in all (the same within the window both called)`;
  return `same  ${label}: ${local.phase}${local.message ? ` (${local.message})` : ''}, ${counted}`;
}

// ---- the real side ----------------------------------------------------------------------------------------

/** The log files of a container of the workflow's agent pod(s), as the pod runner keeps them. */
function agentContainerLogs(state: StackState, namespace: string, workflow: string, container: string) {
  const pods = join(state.dir, 'pods');
  if (!existsSync(pods)) return [];
  return readdirSync(pods)
    .filter((d) => d.startsWith(`${namespace}_${workflow}-`) && /-agent_[0-9a-f]{8}$/.test(d))
    .map((d) => join(pods, d, 'logs', `${container}.log`))
    .filter((f) => existsSync(f));
}

/** JSON lines of the agent pod's `container` log, parsed (other lines skipped). */
export function agentContainerLines(
  state: StackState,
  namespace: string,
  workflow: string,
  container: string,
): Array<Record<string, unknown>> {
  return agentContainerLogs(state, namespace, workflow, container).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
  );
}

export const isExecute = (url: unknown): boolean => url === EXECUTE;

/** Creates a Workflow through the API (without blocking the event loop, unlike kubectl); answers its name. */
export async function submit(state: StackState, namespace: string, workflow: object): Promise<string> {
  const created = await kubeClient(state).call<{ metadata: { name: string } }>(
    'POST',
    `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/workflows`,
    workflow,
  );
  return created.metadata.name;
}

export interface Observation {
  workflow: WorkflowOutcome;
  /** The workflow did not end: it was deleted after `quietMs` without a call (a node that hangs). */
  stopped: boolean;
}

/**
 * Waits for the workflow to end, then `settleMs` more for calls the agent makes before its pod goes. A
 * workflow that has not ended once its plugin has had no request for `quietMs` (after at least one) hangs:
 * it is deleted and answered as it was then.
 */
export async function observeReal(
  state: StackState,
  namespace: string,
  name: string,
  requests: () => SeenRequest[],
  { quietMs, timeoutMs, settleMs = 3000 }: { quietMs: number; timeoutMs: number; settleMs?: number },
): Promise<Observation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const workflow = await waitForWorkflow(state, namespace, name, 0);
    if (['Succeeded', 'Failed', 'Error'].includes(workflow.phase)) {
      await new Promise((r) => setTimeout(r, settleMs));
      return { workflow, stopped: false };
    }
    const seen = requests();
    const last = seen.at(-1)?.t;
    if ((last !== undefined && Date.now() - last > quietMs) || Date.now() > deadline) {
      await kubeClient(state).call(
        'DELETE',
        `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/workflows/${name}`,
      );
      return { workflow, stopped: true };
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
