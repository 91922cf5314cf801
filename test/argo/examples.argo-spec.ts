// Every example workflow of manifests/<app>/examples under the real controller and agent ends as `npm run demo`
// says (the demo-expect annotation, default Succeeded), in three passes run side by side, each in a namespace
// of its own with its own stand-ins: every single plugin installed from manifests/<app> (an agent pod gets them
// all), the collection from manifests/collection, and the plugins declared by each workflow itself
// (spec.executorPlugins from the workflow-level-example.yaml snippets, which also run as examples). The event
// emitter's examples post to the real argo server; the workflow its binding submits ends as expected too.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { examples, prepareNamespace, stack, type ManifestDoc } from './support/cluster.js';
import { apply, declaring, installPlugin, pluginApps, workflowLevelExample } from './support/plugins.js';
import { agentPodRequests, inRoom, nodeRoom, type NodeRoom } from './support/node-room.js';
import { BINDING_LABEL, runBindingSubmissions, runWorkflow, type Run } from './support/runs.js';
import { appEnv, standInsOnStack, startStandIns } from './support/upstreams.js';

interface Pass {
  label: string;
  namespace: string;
  /** The apps whose sidecars each agent pod of this pass holds. */
  sidecars: string[];
  /** Installs the plugins into the namespace with the settings of each app. */
  install(state: StackState, env: Record<string, Record<string, string>>): Promise<unknown>;
  /** What a workflow or template of the examples becomes in this pass. */
  adapt(doc: ManifestDoc, env: Record<string, Record<string, string>>): ManifestDoc;
  /** Workflows this pass runs besides the examples. */
  extra(env: Record<string, Record<string, string>>): Array<{ what: string; doc: ManifestDoc }>;
}

const apps = pluginApps();
const merged = (env: Record<string, Record<string, string>>) =>
  Object.assign({}, ...Object.values(env)) as Record<string, string>;
const workflowLevel = (env: Record<string, Record<string, string>>) =>
  apps.flatMap((app) => workflowLevelExample(app, env[app]).plugins);

const PASSES: Pass[] = [
  {
    label: 'single',
    namespace: 'ep-single',
    sidecars: apps,
    install: (state, env) => Promise.all(apps.map((app) => installPlugin(state, 'ep-single', app, env[app]))),
    adapt: (doc) => doc,
    extra: () => [],
  },
  {
    label: 'collection',
    namespace: 'ep-collection',
    sidecars: ['collection'],
    install: (state, env) => installPlugin(state, 'ep-collection', 'collection', merged(env)),
    adapt: (doc) => doc,
    extra: () => [],
  },
  {
    label: 'workflow-level',
    namespace: 'ep-workflow-level',
    sidecars: apps,
    install: (state, env) =>
      Promise.all(
        apps.map((app) => installPlugin(state, 'ep-workflow-level', app, env[app], { workflowLevel: true })),
      ),
    adapt: (doc, env) =>
      doc.kind === 'Workflow' || doc.kind === 'WorkflowTemplate' ? declaring(doc, workflowLevel(env)) : doc,
    extra: (env) => [
      ...apps.map((app) => workflowLevelExample(app, env[app])),
      workflowLevelExample('collection', merged(env)),
    ],
  },
];

interface PassResult {
  runs: Run[];
  submitted: Run[];
}

async function runPass(state: StackState, pass: Pass, room: NodeRoom | undefined): Promise<PassResult> {
  await prepareNamespace(state, pass.namespace);
  const standIns = await startStandIns(apps);
  try {
    const env = await appEnv(state, pass.namespace, standIns);
    await pass.install(state, env);
    const all = apps.flatMap((app) => examples(app, { quick: true }));
    // Bindings and templates first: an event finds them when its workflow runs.
    await apply(
      state,
      pass.namespace,
      all.filter(({ doc }) => doc.kind !== 'Workflow').map(({ doc }) => pass.adapt(doc, env)),
    );
    const submissions = [
      ...all
        .filter(({ doc }) => doc.kind === 'Workflow')
        .map(({ file, doc }) => ({ what: file, doc: pass.adapt(doc, env) })),
      ...pass.extra(env).map(({ what, doc }) => ({ what, doc })),
    ];
    // On the real node no more at once than it fits (an agent pod of the single pass asks 210m of CPU).
    const requests = agentPodRequests(pass.sidecars);
    const run = (s: (typeof submissions)[number]) => runWorkflow(state, pass.namespace, pass.label, s);
    const runs = await Promise.all(submissions.map((s) => inRoom(room, requests, () => run(s))));
    const submitted = await runBindingSubmissions(
      state,
      pass.namespace,
      pass.label,
      (wf) => `workflow ${wf.metadata.name} (binding ${wf.metadata.labels?.[BINDING_LABEL]})`,
    );
    return { runs, submitted };
  } finally {
    await standIns.close();
  }
}

describe('examples under the real Argo', () => {
  let state: StackState;
  let results: Array<Promise<PassResult>>;

  beforeAll(async () => {
    state = stack();
    standInsOnStack(state);
    const room = await nodeRoom(state);
    // The passes run side by side, sharing the node's room; each test below waits for its own.
    results = PASSES.map((pass) => runPass(state, pass, room));
    for (const result of results) result.catch(() => undefined);
  });
  afterAll(async () => {
    await Promise.allSettled(results);
  });

  PASSES.forEach((pass, i) => {
    it(`${pass.label}: every example ends as the demo says`, async () => {
      const { runs, submitted } = await results[i];
      expect(runs.map((r) => [r.what, r.phase])).toEqual(runs.map((r) => [r.what, r.expected]));
      // The event example's binding submitted its template, and that workflow ran to its end.
      expect(submitted.length).toBeGreaterThan(0);
      expect(submitted.map((r) => [r.what, r.phase])).toEqual(submitted.map((r) => [r.what, 'Succeeded']));
    });
  });
});
