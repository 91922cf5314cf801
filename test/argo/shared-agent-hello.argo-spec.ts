// Argo's own "hello" executor plugin (its e2e manifests, read from the Go module cache) called by URL through
// the shared agent: a third-party plugin server, in another language, with a token file. Its Python server is
// unchanged: it reads /var/run/argo/token and listens on every address of its network, so it runs as a pod of
// the stack (the pod runner gives it a network namespace on the stack's bridge and mounts the token there) and
// the agents call it at the pod's address. The same workflow through Argo's agent pod, with the plugin
// installed as Argo installs it, ends the same way.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { restartSharedAgents } from '../../tools/argo-stack/src/shared-agents.js';
import {
  create,
  kubeClient,
  kubectl,
  prepareNamespace,
  repoRoot,
  stack,
  waitForWorkflow,
} from './support/cluster.js';
import { sharedStack } from './support/shared-stack.js';

const NAMESPACE = 'ep-hello';
const TOKEN = 'hellotokenbcdfghjklmnpqrstvwxz24';

/** Argo's e2e plugin manifests: the hello ConfigMap, its ServiceAccount and token Secret. */
function helloManifests(): string[] {
  const out = execFileSync('go', ['list', '-m', '-json', 'github.com/argoproj/argo-workflows/v4'], {
    cwd: join(repoRoot, 'tools/argo-stack/go/argo'),
    encoding: 'utf8',
  });
  const dir = join(/"Dir": "([^"]+)"/.exec(out)![1]!, 'test/e2e/manifests/plugins');
  return [
    'hello-executor-plugin-configmap.yaml',
    'hello-executor-plugin-serviceaccount.yaml',
    'hello-executor-plugin.service-account-token-secret.yaml',
  ].map((f) => readFileSync(join(dir, f), 'utf8'));
}

const workflow = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Workflow',
  metadata: { generateName: 'hello-' },
  spec: { entrypoint: 'main', templates: [{ name: 'main', plugin: { hello: {} } }] },
};

describe("Argo's hello plugin by URL through the shared agent", () => {
  const pods = stack();
  const shared = sharedStack();

  beforeAll(async () => {
    const [configMap, ...account] = helloManifests();
    const container = parse(
      (parse(configMap!) as { data: Record<string, string> }).data['sidecar.container']!,
    ) as Record<string, unknown>;

    // Argo's agent: the plugin installed in the workflows' namespace, as Argo's e2e tests install it.
    await prepareNamespace(pods, NAMESPACE);
    kubectl(pods, ['apply', '-n', NAMESPACE, '-k', join(repoRoot, 'manifests/install/workflow-namespace')]);
    for (const text of [configMap!, ...account]) kubectl(pods, ['apply', '-n', NAMESPACE, '-f', '-'], text);

    // The shared agent: the same container as a pod of Argo's namespace, its token in a Secret.
    await prepareNamespace(shared, NAMESPACE);
    kubectl(
      shared,
      ['apply', '-n', 'argo', '-f', '-'],
      [
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hello-token' }, stringData: { token: TOKEN } },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'hello-executor-plugin', labels: { app: 'hello-executor-plugin' } },
          spec: {
            containers: [
              { ...container, volumeMounts: [{ name: 'token', mountPath: '/var/run/argo', readOnly: true }] },
            ],
            volumes: [{ name: 'token', secret: { secretName: 'hello-token' } }],
          },
        },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n'),
    );
    const client = kubeClient(shared);
    let address = '';
    for (let i = 0; i < 120 && !address; i++) {
      const pod = await client.get<{ status?: { phase?: string; podIP?: string } }>(
        '/api/v1/namespaces/argo/pods/hello-executor-plugin',
      );
      if (pod.status?.phase === 'Running' && pod.status.podIP) address = pod.status.podIP;
      else await new Promise((r) => setTimeout(r, 1000));
    }
    expect(address).not.toBe('');
    // The agents read the token where Argo's agent keeps it: <dir>/hello/token.
    const tokens = join(shared.dir, 'hello-tokens');
    mkdirSync(join(tokens, 'hello'), { recursive: true });
    writeFileSync(join(tokens, 'hello', 'token'), TOKEN);
    await restartSharedAgents(shared, () => undefined, {
      AGENT_EXTERNAL_PLUGINS: `hello=http://${address}:4355`,
      AGENT_PLUGIN_TOKEN_DIR: tokens,
    });
  });
  afterAll(async () => {
    kubectl(shared, [
      'delete',
      '-n',
      'argo',
      '--ignore-not-found',
      'pod/hello-executor-plugin',
      'secret/hello-token',
    ]);
    // The other suites' agents run without it.
    await restartSharedAgents(shared, () => undefined);
  });

  it('answers the hello template as under Argo agent pod', async () => {
    const [argo, ours] = await Promise.all(
      [pods, shared].map(async (state) =>
        waitForWorkflow(state, NAMESPACE, await create(state, NAMESPACE, workflow), 5 * 60_000),
      ),
    );
    const node = (o: typeof argo) => Object.values(o.nodes).find((n) => n.type === 'Plugin');
    expect(node(ours)).toMatchObject({
      phase: 'Succeeded',
      message: 'Hello template!',
      outputs: { parameters: [{ name: 'foo', value: 'bar' }] },
    });
    expect([ours.phase, node(ours)?.message, node(ours)?.outputs]).toEqual([
      argo.phase,
      node(argo)?.message,
      node(argo)?.outputs,
    ]);
  });
});
