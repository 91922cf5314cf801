// The agent RBAC of our manifests against the real API server's RBAC: each manifest (every plugin's
// agent-rbac.yaml, the collection's, manifests/install/workflow-namespace) lets the namespace's `default`
// account, as which the agent runs, watch WorkflowTaskSets and patch their status, and nothing it does not need.
// And it is enough: with only our manifests and the token Secret docs/install.md names (no executor Role of
// Argo's quick-start), the real agent runs a plugin workflow to its end.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import {
  documentedObject,
  examples,
  kubectlAsync,
  serviceAccountMay,
  stack,
  type ManifestDoc,
  type ResourceAttributes,
} from './support/cluster.js';
import { apply, installPlugin, kustomization, pluginApps } from './support/plugins.js';
import { runWorkflow } from './support/runs.js';
import { standInsOnStack, startStandIns } from './support/upstreams.js';

type Check = Omit<ResourceAttributes, 'namespace'>;
const argo = (resource: string, verb: string, subresource?: string): Check => ({
  group: 'argoproj.io',
  resource,
  verb,
  subresource,
});
const core = (resource: string, verb: string): Check => ({ group: '', resource, verb });

/** What `argoexec agent` does with the API: watch the workflow's task set, patch the results into its status. */
const NEEDED: Check[] = [
  argo('workflowtasksets', 'get'),
  argo('workflowtasksets', 'list'),
  argo('workflowtasksets', 'watch'),
  argo('workflowtasksets', 'patch', 'status'),
];

const NOT_NEEDED: Check[] = [
  core('pods', 'create'),
  core('pods', 'list'),
  core('pods', 'delete'),
  core('secrets', 'get'),
  core('secrets', 'list'),
  core('configmaps', 'get'),
  core('serviceaccounts', 'create'),
  argo('workflows', 'get'),
  argo('workflows', 'patch'),
  argo('workflows', 'update'),
  argo('workflows', 'create'),
  argo('workflowtasksets', 'create'),
  argo('workflowtasksets', 'update'),
  argo('workflowtasksets', 'patch'),
  argo('workflowtasksets', 'delete'),
  argo('workflowtasksets', 'update', 'status'),
  argo('workflowtaskresults', 'create'),
  argo('workflowtemplates', 'get'),
];

const label = ({ verb, resource, subresource }: Check) =>
  `${verb} ${resource}${subresource ? `/${subresource}` : ''}`;

/** A namespace with nothing but what `docs` bring (no quick-start executor Role, no token Secret). */
async function bareNamespace(state: StackState, namespace: string, docs: ManifestDoc[]): Promise<void> {
  await kubectlAsync(state, ['create', 'namespace', namespace]).catch((err: Error) => {
    if (!/AlreadyExists/.test(err.message)) throw err;
  });
  await apply(state, namespace, docs);
}

describe('the agent RBAC of our manifests', () => {
  let state: StackState;
  beforeAll(() => {
    state = stack();
  });

  const sources = [...pluginApps(), 'collection', 'install/workflow-namespace'];
  it.each(sources)('manifests/%s: enough for the agent, and nothing else', async (source) => {
    const namespace = `ep-rbac-${source.replace(/\//g, '-')}`;
    const rbac = (await kustomization(state, source)).filter((d) => d.kind.startsWith('Role'));
    expect(rbac.map((d) => d.kind).sort()).toEqual(['Role', 'RoleBinding']);
    await bareNamespace(state, namespace, rbac);
    const agent = { namespace, name: 'default' };
    const may = async (check: Check) => [
      label(check),
      await serviceAccountMay(state, agent, { ...check, namespace }),
    ];
    // RBAC reaches the authorizer through a cache: wait for the first right to show.
    for (let i = 0; i < 50 && !(await serviceAccountMay(state, agent, { ...NEEDED[0], namespace })); i++)
      await new Promise((r) => setTimeout(r, 200));
    expect(await Promise.all(NEEDED.map(may))).toEqual(NEEDED.map((c) => [label(c), true]));
    expect(await Promise.all(NOT_NEEDED.map(may))).toEqual(NOT_NEEDED.map((c) => [label(c), false]));
  });

  describe('with nothing else in the namespace', () => {
    const namespace = 'ep-rbac-run';
    let close: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      standInsOnStack(state);
      const standIns = await startStandIns(['build-trigger']);
      close = standIns.close;
      await bareNamespace(state, namespace, [documentedObject('docs/install.md', 'A token Secret for that')]);
      await kubectlAsync(state, ['delete', 'workflows', '--all', '-n', namespace, '--wait=false']);
      await installPlugin(state, namespace, 'build-trigger', standIns.env['build-trigger']);
    });
    afterAll(() => close());

    it('the real agent runs a plugin workflow to its end', async () => {
      const example = examples('build-trigger').find((e) => e.file.endsWith('/jenkins-build.yaml'))!;
      const run = await runWorkflow(state, namespace, 'our RBAC only', {
        what: example.file,
        doc: example.doc,
      });
      expect([run.phase, run.message]).toEqual(['Succeeded', undefined]);
    });
  });
});
