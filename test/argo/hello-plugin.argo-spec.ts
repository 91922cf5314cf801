// Argo's own hello plugin (the Python server of Argo's e2e manifests: its ConfigMap, ServiceAccount and token
// Secret, read from the pinned Argo module at test time) beside our plugins in one agent pod: a workflow with a
// hello step and a build step, each answered by its own sidecar.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { argoModuleDir, type StackState } from '../../tools/argo-stack/src/stack.js';
import { watchAgentPod } from './support/agent-pods.js';
import { create, prepareNamespace, stack, type ManifestDoc } from './support/cluster.js';
import { apply, installPlugin, pluginApps, pluginManifest } from './support/plugins.js';
import { followWorkflow } from './support/runs.js';
import { appEnv, standInsOnStack, startStandIns } from './support/upstreams.js';

const NAMESPACE = 'ep-hello';

/** Argo's hello plugin: test/e2e/manifests/plugins of the pinned module (never copied into the repo). */
function helloPlugin(state: StackState): ManifestDoc[] {
  const dir = join(argoModuleDir(state.repoRoot), 'test/e2e/manifests/plugins');
  return readdirSync(dir)
    .filter((f) => f.startsWith('hello-executor-plugin'))
    .map((f) => parse(readFileSync(join(dir, f), 'utf8')) as ManifestDoc);
}

const WORKFLOW: ManifestDoc = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Workflow',
  metadata: { generateName: 'hello-beside-ours-' },
  spec: {
    entrypoint: 'main',
    templates: [
      {
        name: 'main',
        steps: [
          [
            { name: 'hello', template: 'hello' },
            { name: 'build', template: 'build' },
          ],
        ],
      },
      {
        name: 'hello',
        outputs: { parameters: [{ name: 'foo', valueFrom: { supplied: {} } }] },
        plugin: { hello: {} },
      },
      {
        name: 'build',
        outputs: { parameters: [{ name: 'result', valueFrom: { supplied: {} } }] },
        plugin: {
          build: {
            jenkins: { job: 'platform/app-build', parameters: { TARGET: 'hello' } },
            pollInterval: '5s',
          },
        },
      },
    ],
  },
};

describe("Argo's hello plugin beside ours", () => {
  let state: StackState;
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    state = stack();
    standInsOnStack(state);
    await prepareNamespace(state, NAMESPACE);
    const standIns = await startStandIns(pluginApps());
    close = standIns.close;
    const env = await appEnv(state, NAMESPACE, standIns);
    await Promise.all(pluginApps().map((app) => installPlugin(state, NAMESPACE, app, env[app])));
    await apply(state, NAMESPACE, helloPlugin(state));
  });
  afterAll(() => close());

  it('one agent pod runs both sidecars, and each answers its own template', async () => {
    const name = await create(state, NAMESPACE, WORKFLOW);
    const pod = watchAgentPod(state, NAMESPACE, name);
    const run = await followWorkflow(
      state,
      NAMESPACE,
      'hello + ours',
      { what: 'hello step + build step', doc: WORKFLOW },
      name,
    );
    pod.stop();
    const node = (name: string) => Object.values(run.outcome.nodes).find((n) => n.displayName === name)!;
    expect(run.phase).toBe('Succeeded');
    expect(node('hello')).toMatchObject({
      phase: 'Succeeded',
      message: 'Hello template!',
      outputs: { parameters: [{ name: 'foo', value: 'bar' }] },
    });
    expect(node('build')).toMatchObject({
      phase: 'Succeeded',
      outputs: { parameters: expect.arrayContaining([{ name: 'result', value: 'SUCCESS' }]) },
    });
    // The hello server logs each request it answered; ours logs the build it started.
    expect(pod.container('hello-executor-plugin').log).toMatch(
      /"POST \/api\/v1\/template\.execute HTTP\/1\.1" 200/,
    );
    expect(pod.container(pluginManifest('build-trigger').spec.sidecar.container.name).log).toMatch(
      /platform\/app-build/,
    );
  });
});
