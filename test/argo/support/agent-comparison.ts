// The local agent and the real one side by side: what each made of a workflow (its phase and message, each
// plugin node's phase, message and outputs) and the calls its plugin saw, put in one comparable shape, and
// the differences between the two in words.
import { isFinalPhase, isWorkflowDone } from '@app/contract';
import type { WorkflowResult } from '@app/local-agent';
import type { StackState } from '../../../tools/argo-stack/src/stack.js';
import type { AgentPodWatch } from './agent-pods.js';
import { kubeClient, waitForWorkflow, type WorkflowOutcome } from './cluster.js';

/** One request as the plugin saw it: when, and whether it was a template.execute call. */
export interface SeenRequest {
  t: number;
  execute: boolean;
  /** What the plugin said of it, shown when the calls differ. */
  detail?: string;
  /** The reply, when the plugin logs it: its node (execution key), phase, requeue, and the call's duration. */
  reply?: { node: string; phase: string; requeueMs?: number; ms: number };
}

/** How far a call may land from when the reply before it asked (the agent's and this machine's delays). */
const REQUEUE_SLACK_MS = 2000;

/** The calls of each node, in order; undefined when a call carries no reply (nothing to judge it by). */
function callsByNode(requests: SeenRequest[]): SeenRequest[][] | undefined {
  if (requests.some((r) => !r.reply)) return undefined;
  const byNode = new Map<string, SeenRequest[]>();
  for (const r of requests) byNode.set(r.reply!.node, [...(byNode.get(r.reply!.node) ?? []), r]);
  return [...byNode.values()];
}

/** How long after `call` ended the agent came back with `next` (the next call's own duration taken off). */
const gapBetween = (call: SeenRequest, next: SeenRequest): number => next.t - next.reply!.ms - call.t;

/**
 * Whether every call came as the replies before it asked, node by node: the next call `requeue` after a Running
 * or Pending reply, none after a final one, and the last reply final. Two agents that both do so made the same
 * decisions, even when their plugins' replies differed (an upstream that was slow for one of them).
 */
export function followsReplies(requests: SeenRequest[]): boolean {
  const nodes = requests.length === 0 ? undefined : callsByNode(requests);
  return (
    nodes !== undefined &&
    nodes.every((calls) =>
      calls.every((call, i) => {
        const reply = call.reply!;
        const next = calls[i + 1];
        if (!next) return isFinalPhase(reply.phase);
        if (isFinalPhase(reply.phase) || reply.requeueMs === undefined) return false;
        return Math.abs(gapBetween(call, next) - reply.requeueMs) <= REQUEUE_SLACK_MS;
      }),
    )
  );
}

/**
 * Every call after the first came once the requeue its node's reply before asked for had passed (whatever the
 * phase): not sooner. Later is how busy the machine was (the real agent, at a load of 5, once came 4 s after a
 * 1 s requeue).
 */
export function callsAsAsked(requests: SeenRequest[]): boolean {
  const nodes = callsByNode(requests);
  return (
    nodes !== undefined &&
    nodes.every((calls) =>
      calls.every((call, i) => {
        const next = calls[i + 1];
        if (!next) return true;
        const { requeueMs } = call.reply!;
        return requeueMs !== undefined && gapBetween(call, next) >= requeueMs - REQUEUE_SLACK_MS;
      }),
    )
  );
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

/**
 * Text that differs by construction: node ids (`<workflow>-<fnv32a of the node's name>`, shown as the node's name),
 * workflow names (generated) and the plugin's port.
 */
function normalize(
  text: string | undefined,
  workflow: string,
  names: Map<string, string> = new Map(),
): string | undefined {
  if (text === undefined || text === '') return undefined;
  return text
    .replace(new RegExp(`${workflow}-\\d+`, 'g'), (id) => (names.has(id) ? `{node ${names.get(id)}}` : id))
    .split(workflow)
    .join('<workflow>')
    .replace(/localhost:\d+/g, 'localhost:<port>');
}

const EXECUTE = '/api/v1/template.execute';

export const isExecute = (url: unknown): boolean => url === EXECUTE;

interface NodeLike {
  id?: string;
  name?: string;
  displayName: string;
  type: string;
  phase: string;
  message?: string;
  outputs?: unknown;
}

function outcome(
  run: { name: string; phase: string; message?: string; nodes: NodeLike[] },
  requests: SeenRequest[],
  cutShort?: boolean,
): AgentOutcome {
  const names = new Map(run.nodes.map((n) => [n.id ?? '', n.name ?? ''] as const));
  const text = (t: string | undefined) => normalize(t, run.name, names);
  const nodes: AgentOutcome['nodes'] = {};
  for (const node of run.nodes.filter((n) => n.type === 'Plugin'))
    nodes[node.displayName === run.name ? '(root)' : text(node.displayName)!] = {
      phase: node.phase,
      message: text(node.message),
      outputs: node.outputs,
    };
  return { phase: run.phase, message: text(run.message), nodes, requests, cutShort };
}

export function localOutcome(
  result: WorkflowResult,
  requests: SeenRequest[],
  options: { cutShort?: boolean } = {},
): AgentOutcome {
  return outcome(result, requests, options.cutShort);
}

export function realOutcome(
  workflow: WorkflowOutcome,
  requests: SeenRequest[],
  options: { cutShort?: boolean } = {},
): AgentOutcome {
  const nodes = Object.entries(workflow.nodes).map(([id, node]) => ({ id, ...node }));
  return outcome({ ...workflow, nodes }, requests, options.cutShort);
}

/**
 * Text with what stand-ins mint masked: a word with a digit, with a lower-case letter before an upper-case one,
 * or of 8 and more upper-case letters and digits (ids, times, ports, random names). The examples run against
 * a set of stand-ins per agent, and each mints its own.
 */
export function maskMinted(text: string): string {
  return text.replace(/[A-Za-z0-9_-]+/g, (word) =>
    /\d|[a-z][A-Z]|^[A-Z0-9_-]{8,}$/.test(word) ? '#' : word,
  );
}

/** Every string in a JSON value passed through `mask`. */
function masked(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map((v) => masked(v, mask));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, mask)]));
  return value;
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

/**
 * Each way the two outcomes differ, in words (`local … / real …`); empty when they agree. Messages and outputs
 * are compared through `mask` (nothing masked by default).
 */
export function differences(
  local: AgentOutcome,
  real: AgentOutcome,
  mask: (text: string) => string = (text) => text,
): string[] {
  const out: string[] = [];
  const field = (what: string, a: unknown, b: unknown): void => {
    if (show(masked(a, mask)) !== show(masked(b, mask)))
      out.push(`${what}: local ${show(a)} / real ${show(b)}`);
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
  if (followsReplies(local.requests) && followsReplies(real.requests)) return out;
  // Cut short (one agent stops calling a node whose reply still asks for calls): how many calls land in the
  // window depends on each machine's delays, so both calling each time their replies asked is the same decision.
  if (cut && callsAsAsked(within(local.requests, windowMs)) && callsAsAsked(within(real.requests, windowMs)))
    return out;
  const before = out.length;
  field(`plugin requests ${what}`, counts(local).requests, counts(real).requests);
  field(`template.execute calls ${what}`, counts(local).calls, counts(real).calls);
  if (out.length > before) out.push(`calls: local ${callList(local)} / real ${callList(real)}`);
  return out;
}

/** The calls as offsets from the first, with what the plugin said of each. */
function callList(o: AgentOutcome): string {
  const first = o.requests[0]?.t ?? 0;
  return `[${o.requests.map((r) => `+${((r.t - first) / 1000).toFixed(1)}s${r.detail ? ` ${r.detail}` : ''}`).join(', ')}]`;
}

/** One line for a report: the label, and either `same` with the outcome or each difference. */
export function comparisonLine(
  label: string,
  local: AgentOutcome,
  real: AgentOutcome,
  mask?: (text: string) => string,
): string {
  const diff = differences(local, real, mask);
  if (diff.length > 0) return `DIFF  ${label}: ${diff.join('; ')}`;
  const calls = (o: AgentOutcome) => o.requests.filter((r) => r.execute).length;
  const counted =
    calls(local) === calls(real)
      ? `${calls(local)} call(s)`
      : followsReplies(local.requests) && followsReplies(real.requests)
        ? `calls each as its plugin's replies asked, which differed: local ${callList(local)} / real ${callList(real)}`
        : `${calls(local)} call(s) local, ${calls(real)} real in all (the same within the window both called)`;
  return `same  ${label}: ${local.phase}${local.message ? ` (${local.message})` : ''}, ${counted}`;
}

// ---- the real side ----------------------------------------------------------------------------------------

/** One case played under both agents. */
export interface Compared {
  label: string;
  local: AgentOutcome;
  real: AgentOutcome;
}

/**
 * Plays `cases` under both agents (`play`, round 0), then once more those that differ (round 1): a stall of a
 * busy machine can make the real agent lose its API connection and start again, so one run can differ by the
 * machine; a difference of the agents shows twice. Answers every first result, the cases that differed twice,
 * and the lines to report (each difference, and each case that was the same when played again).
 */
export async function compareTwice<C>(
  cases: C[],
  labelOf: (c: C) => string,
  play: (batch: C[], round: 0 | 1) => Promise<Compared[]>,
  mask?: (text: string) => string,
): Promise<{ results: Compared[]; differing: Compared[]; lines: string[] }> {
  const differs = (r: Compared) => differences(r.local, r.real, mask).length > 0;
  const results = await play(cases, 0);
  const once = results.filter(differs);
  const again =
    once.length > 0
      ? await play(
          cases.filter((c) => once.some((r) => r.label === labelOf(c))),
          1,
        )
      : [];
  const differing = again.filter(differs);
  const lines = [
    ...once
      .filter((r) => !differing.some((d) => d.label === r.label))
      .map((r) => `${comparisonLine(r.label, r.local, r.real, mask)} (the same when played again)`),
    ...differing.map((r) => comparisonLine(r.label, r.local, r.real, mask)),
  ];
  return { results, differing, lines };
}

/** JSON lines of a container of the workflow's agent pod, parsed (none before the pod has a log). */
export function agentContainerLines(pod: AgentPodWatch, container: string): Array<Record<string, unknown>> {
  return pod
    .container(container)
    .log.split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
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
    // A busy API server may not answer in time: asked again a second later.
    const workflow = await waitForWorkflow(state, namespace, name, 0).catch((err: unknown) => {
      if (Date.now() > deadline) throw err;
      return undefined;
    });
    if (!workflow) {
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    if (isWorkflowDone(workflow.phase)) {
      await new Promise((r) => setTimeout(r, settleMs));
      return { workflow, stopped: false };
    }
    const last = requests().at(-1)?.t;
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
