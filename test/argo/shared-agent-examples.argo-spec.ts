// Every example workflow of manifests/*/examples on two real Argo stacks side by side: one with Argo's own
// agent pod per workflow (the collection installed from manifests/collection), one with
// disableAgentPodCreation and the shared agent (its plugins' settings in namespace argo, as its Deployment reads
// them). Each workflow must end the same way on both, as `npm run demo` says, and the second stack must never
// see an agent pod.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DemoUpstreams } from '@app/local-agent';
import { startDemoUpstreams } from '../../apps/collection/demo/upstreams.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { reportText } from './support/report.js';
import {
  create,
  examples,
  kubeClient,
  kubectl,
  prepareNamespace,
  stack,
  waitForWorkflow,
  type ManifestDoc,
  type WorkflowOutcome,
} from './support/cluster.js';
import { agentPodRequests, inRoom, nodeRoom } from './support/node-room.js';
import { installPlugin, pluginApps } from './support/plugins.js';
import { configureSharedAgent, sharedStack } from './support/shared-stack.js';
import { standInsOnStack } from './support/upstreams.js';

const EXPECT = 'executor-plugins.dev/demo-expect';
const NAMESPACE = 'ep-examples';

/**
 * What must be the same under both agents: the plugin nodes' phases and messages (once addresses and counters
 * are set aside), and the workflow's phase when it has no pod step. Pod steps are the pod runner's, not the
 * agents': on this machine its wait container sometimes cannot mount the pod's emptyDir, failing the step on
 * either stack alike.
 */
function summary(outcome: WorkflowOutcome): unknown {
  // The workflow's generated name, addresses, and the ids stand-ins make up (channels, messages, runs, UUIDs) differ
  // from run to run; the rest of a message must be the same.
  const text = (m?: string) =>
    m
      ?.split(outcome.name)
      .join('<wf>')
      .replace(/https?:\/\/[\w.:-]+/g, '<url>')
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
      // A generated name's random suffix (a Cloud Run execution is `<job>-<5 characters>`).
      .replace(/-[a-z0-9]{5}\b/g, '-<sfx>')
      .replace(/[A-Za-z0-9_]{8,}/g, (t) => (/\d|[A-Z].*[A-Z]/.test(t) ? '<id>' : t))
      .replace(/\d+/g, 'N');
  const nodes = Object.values(outcome.nodes);
  return {
    phase: nodes.some((n) => n.type === 'Pod') ? '(has pod steps)' : outcome.phase,
    plugins: nodes
      .filter((n) => n.type === 'Plugin' || n.type === 'HTTP')
      .map((n) => ({ name: text(n.displayName), phase: n.phase, message: text(n.message) }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
  };
}

/** Whether a workflow runs a container (or script) step besides its plugin steps. */
const hasPodSteps = (doc: ManifestDoc) =>
  ((doc.spec?.templates as Array<Record<string, unknown>> | undefined) ?? []).some(
    (t) => t.container || t.script,
  );

/** Every agent pod the stack creates while the test runs (there must be none with the shared agent). */
function watchAgentPods(state: StackState, signal: AbortSignal): string[] {
  const seen: string[] = [];
  void kubeClient(state).watch<{ metadata: { name: string; namespace: string } }>(
    '/api/v1/pods',
    (event) => {
      if (event.type === 'ADDED')
        seen.push(`${event.object.metadata.namespace}/${event.object.metadata.name}`);
    },
    signal,
    { query: 'labelSelector=workflows.argoproj.io%2Fcomponent%3Dagent' },
  );
  return seen;
}

describe('the shared agent: every example workflow ends as with Argo agent pods', () => {
  const pods = stack();
  const shared = sharedStack();
  const upstreams: DemoUpstreams[] = [];
  const watching = new AbortController();

  beforeAll(async () => {
    // Each stack its own stand-ins, on its own HOST_ADDR, with a certificate for it (Data Factory's identity
    // stand-in speaks only HTTPS, as MSAL requires).
    standInsOnStack(pods);
    const forPods = await startDemoUpstreams({ plugins: [], timeScale: 1 });
    standInsOnStack(shared);
    const forShared = await startDemoUpstreams({ plugins: [], timeScale: 1 });
    upstreams.push(forPods, forShared);
    await prepareNamespace(pods, NAMESPACE);
    await installPlugin(pods, NAMESPACE, 'collection', forPods.env);
    await prepareNamespace(shared, NAMESPACE);
    await configureSharedAgent(shared, forShared.env);
  });
  afterAll(async () => {
    watching.abort();
    await Promise.all(upstreams.map((u) => u.close()));
  });

  it('same phases and messages on both stacks, as the demo expects, and no agent pod with the shared agent', async () => {
    const agentPodsShared = watchAgentPods(shared, watching.signal);
    const agentPodsArgo = watchAgentPods(pods, watching.signal);
    const docs = pluginApps().flatMap((app) => examples(app, { quick: true }));
    const others = docs.filter((d) => d.doc.kind !== 'Workflow').map((d) => JSON.stringify(d.doc));
    for (const state of [pods, shared])
      kubectl(state, ['apply', '-n', NAMESPACE, '-f', '-'], others.join('\n'));
    const workflows = docs.filter((d) => d.doc.kind === 'Workflow');
    const runs = workflows.map(({ file, doc }) => ({
      file,
      doc,
      expected: doc.metadata.annotations?.[EXPECT] ?? 'Succeeded',
      podSteps: hasPodSteps(doc),
    }));
    // The agent pods on a real node: no more at once than it fits (the shared agent needs none).
    const room = await nodeRoom(pods);
    const requests = agentPodRequests(['collection']);
    const outcomes = await Promise.all(
      runs.map(({ doc }) =>
        Promise.all([
          inRoom(room, requests, async () =>
            waitForWorkflow(pods, NAMESPACE, await create(pods, NAMESPACE, doc), 10 * 60_000),
          ),
          create(shared, NAMESPACE, doc).then((name) =>
            waitForWorkflow(shared, NAMESPACE, name, 10 * 60_000),
          ),
        ]),
      ),
    );
    const lines = runs.map((r, i) => {
      const [argo, ours] = outcomes[i]!;
      return `${r.file}: Argo's agent ${argo.phase}, shared agent ${ours.phase}${ours.message ? ` (${ours.message})` : ''}`;
    });
    reportText([
      ...lines.filter((_, i) => outcomes[i]![0].phase !== outcomes[i]![1].phase),
      `shared-agent-examples: ${lines.length} examples with agent pods and with the shared agent, ${lines.filter((_, i) => outcomes[i]![0].phase !== outcomes[i]![1].phase).length} ending in another phase`,
    ]);
    const withoutPods = runs.map((r, i) => ({ r, i })).filter(({ r }) => !r.podSteps);
    expect(withoutPods.map(({ i }) => outcomes[i]![1].phase)).toEqual(withoutPods.map(({ r }) => r.expected));
    expect(outcomes.map(([, ours]) => summary(ours))).toEqual(outcomes.map(([argo]) => summary(argo)));
    expect(agentPodsShared).toEqual([]);
    // The comparison is with agent pods indeed.
    expect(agentPodsArgo.length).toBeGreaterThan(0);
  });
});
