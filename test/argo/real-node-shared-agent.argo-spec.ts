// docs/shared-agent.md's "How" and "How to switch back", followed on the real node with kubectl (and helm) alone:
// the plugins' Secrets in Argo's namespace, `kubectl apply -k manifests/shared-agent` rolling out the agent's
// image (built from docker/Dockerfile) as real pods with their probes, the controller switched by its ConfigMap,
// a workflow's plugin and HTTP steps run by those pods with no agent pod, a setting changed with `kubectl set
// env` (the Deployment rolls out), a replica deleted while workflows run, then the same install by the Helm
// chart, and the switch back. The suites run one at a time: the controller is switched back before the next.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setStandInHost } from '@app/local-agent';
import { startSlackDemoWorkspace, type SlackDemoWorkspace } from '../../apps/chat-notifier/demo/upstreams.js';
import { ensureBinarySet } from '../../tools/argo-stack/src/binaries.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import {
  create,
  kubectl,
  kubectlAsync,
  prepareNamespace,
  repoRoot,
  realNodeStack,
  until,
  waitForWorkflow,
  type ManifestDoc,
} from './support/cluster.js';
import {
  installSharedAgentPods,
  setSharedAgentEnv,
  sharedAgentPodNames,
  SHARED_AGENT_NAMESPACE,
  SHARED_AGENT_SELECTOR,
  switchController,
  uninstallSharedAgentPods,
} from './support/shared-agent-pods.js';
import { sharedAgentContainer } from './support/shared-stack.js';
import { installSharedAgentDeployment } from '../../tools/argo-stack/src/shared-agent-pods.js';

const NAMESPACE = 'ep-real-shared';
const AGENT = ['-n', SHARED_AGENT_NAMESPACE];
/** The one plugin these workflows use (the others would need their upstreams configured to start). */
const PLUGINS = 'notify';

/** A workflow with a Slack message and an HTTP step, as any namespace's workflow would have them. */
function workflow(httpUrl: string, text: string): ManifestDoc {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'shared-pods-' },
    spec: {
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [[{ name: 'announce', template: 'announce' }], [{ name: 'call', template: 'call' }]],
        },
        { name: 'announce', plugin: { slack: { channel: '#builds', text } } },
        { name: 'call', http: { url: httpUrl, successCondition: 'response.statusCode == 200' } },
      ],
    },
  };
}

describe('the shared agent installed as docs/shared-agent.md says, as real pods', () => {
  let state: StackState;
  let first: SlackDemoWorkspace;
  let second: SlackDemoWorkspace;
  let server: Server;
  let httpUrl = '';
  const calls: string[] = [];
  const messages = (ws: SlackDemoWorkspace) => ws.builds.messages.map((m) => m.text);
  const agentPodsOfWorkflows = () =>
    kubectl(state, [
      'get',
      'pods',
      '-n',
      NAMESPACE,
      '-l',
      'workflows.argoproj.io/component=agent',
      '-o',
      'name',
    ]);

  async function run(text: string): Promise<string> {
    const name = await create(state, NAMESPACE, workflow(`${httpUrl}/${text}`, text));
    const outcome = await waitForWorkflow(state, NAMESPACE, name, 5 * 60_000);
    expect({ name, phase: outcome.phase, message: outcome.message }).toEqual({
      name,
      phase: 'Succeeded',
      message: undefined,
    });
    return name;
  }

  beforeAll(async () => {
    state = realNodeStack();
    // The stand-ins listen where the agent's pods reach this machine.
    setStandInHost(state.hostAddr);
    first = await startSlackDemoWorkspace();
    second = await startSlackDemoWorkspace();
    // The fourth case's calls take 5 s: a replica is deleted while they run.
    server = createServer((req, res) => {
      calls.push(req.url ?? '');
      setTimeout(() => res.end('ok'), req.url?.startsWith('/third') ? 5000 : 0);
    });
    await new Promise<void>((resolve) => server.listen(0, state.hostAddr, resolve));
    httpUrl = `http://${state.hostAddr}:${(server.address() as AddressInfo).port}`;
    await prepareNamespace(state, NAMESPACE);
  });

  afterAll(async () => {
    await uninstallSharedAgentPods(state);
    await Promise.all([first?.close(), second?.close()]);
    server?.close();
  });

  it('rolls out from kubectl apply -k as real pods of our image, ready by their probes', async () => {
    // SLACK_API_URL (the stand-in) and PLUGINS are settings the Deployment leaves to the admin.
    await installSharedAgentPods(state, first.env, { PLUGINS });
    const pods = JSON.parse(
      kubectl(state, [...AGENT, 'get', 'pods', '-l', SHARED_AGENT_SELECTOR, '-o', 'json']),
    ) as {
      items: Array<{
        spec: { nodeName: string; containers: Array<{ image: string; readinessProbe?: unknown }> };
        status: { containerStatuses: Array<{ ready: boolean; containerID: string }> };
      }>;
    };
    expect(pods.items).toHaveLength(2);
    for (const pod of pods.items) {
      expect(pod.spec.nodeName).toBe(state.realNode!.name);
      expect(pod.spec.containers[0]!.image).toBe(sharedAgentContainer(state).image);
      expect(pod.spec.containers[0]!.readinessProbe).toBeDefined();
      expect(pod.status.containerStatuses[0]).toMatchObject({ ready: true });
      expect(pod.status.containerStatuses[0]!.containerID).toMatch(/^containerd:\/\//);
    }
  });

  it("runs a workflow's plugin and HTTP steps once the controller is switched, with no agent pod", async () => {
    const name = await run('first');
    expect(agentPodsOfWorkflows()).toBe('');
    expect(messages(first)).toEqual(['first']);
    expect(calls).toEqual(['/first']);
    const logs = kubectl(state, [...AGENT, 'logs', '-l', SHARED_AGENT_SELECTOR, '--tail=-1', '--prefix']);
    expect(logs).toContain(name);
  });

  it('takes a setting changed with kubectl set env once the Deployment has rolled out', async () => {
    await setSharedAgentEnv(state, { SLACK_API_URL: second.env.SLACK_API_URL! });
    await run('second');
    expect({ first: messages(first), second: messages(second) }).toEqual({
      first: ['first'],
      second: ['second'],
    });
  });

  it('runs each step once when a replica is deleted while workflows run, and the Deployment brings a new one', async () => {
    const [victim] = sharedAgentPodNames(state);
    const runs = ['third-a', 'third-b', 'third-c'].map((text) => run(text));
    await until('an HTTP step of the three running', 120, () =>
      calls.some((c) => c.startsWith('/third')) ? true : undefined,
    );
    await kubectlAsync(state, [...AGENT, 'delete', 'pod', victim!, '--wait=false']);
    await Promise.all(runs);
    await until('the Deployment back at two replicas', 120, () => {
      const pods = sharedAgentPodNames(state);
      return pods.length === 2 && !pods.includes(victim!) ? true : undefined;
    });
    expect(
      messages(second)
        .filter((m) => m.startsWith('third'))
        .sort(),
    ).toEqual(['third-a', 'third-b', 'third-c']);
    expect(calls.filter((c) => c.startsWith('/third')).sort()).toEqual(['/third-a', '/third-b', '/third-c']);
  });

  it('runs the same from the Helm chart in place of the kustomization', async () => {
    await uninstallSharedAgentPods(state);
    const helm = join(await ensureBinarySet(repoRoot, 'helm', () => undefined), 'helm');
    const helmRun = (args: string[]) =>
      execFileSync(helm, args, {
        env: { ...process.env, KUBECONFIG: join(state.dir, 'kubeconfig') },
        stdio: 'pipe',
      });
    helmRun([
      'install',
      'shared-agent',
      join(repoRoot, 'charts/shared-agent'),
      ...AGENT,
      '--set',
      `collection.plugins=${PLUGINS}`,
      '--set',
      'extraEnv[0].name=SLACK_API_URL',
      '--set',
      `extraEnv[0].value=${first.env.SLACK_API_URL}`,
      '--wait',
      '--timeout',
      '5m',
    ]);
    try {
      await switchController(state, true);
      await run('from-helm');
      expect(messages(first)).toEqual(['first', 'from-helm']);
      expect(agentPodsOfWorkflows()).toBe('');
    } finally {
      await switchController(state, false);
      helmRun(['uninstall', 'shared-agent', ...AGENT, '--wait']);
    }
  });

  it('is what npm run argo -- up --agent shared installs on a real node: PLUGINS the plugins whose settings are in argo', async () => {
    const logged: string[] = [];
    await installSharedAgentDeployment(state, { replicas: 1, patchRate: '2s', log: (l) => logged.push(l) });
    try {
      // The Slack Secret of the cases above is there; the other plugins have no settings.
      expect(logged).toEqual([
        expect.stringMatching(
          /^shared agent pods: PLUGINS=notify \(left out: build: no build server configured/,
        ),
      ]);
      // Rolled out: one replica, ready (a pod of the ReplicaSet before `set env` may still be terminating).
      expect(
        kubectl(state, [
          ...AGENT,
          'get',
          'deployment/shared-agent',
          '-o',
          'jsonpath={.spec.replicas} {.status.readyReplicas} {.status.updatedReplicas}',
        ]),
      ).toBe('1 1 1');
      await switchController(state, true);
      const name = await create(state, NAMESPACE, {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Workflow',
        metadata: { generateName: 'stack-install-' },
        spec: {
          entrypoint: 'call',
          templates: [
            {
              name: 'call',
              http: { url: `${httpUrl}/stack-install`, successCondition: 'response.statusCode == 200' },
            },
          ],
        },
      });
      expect((await waitForWorkflow(state, NAMESPACE, name, 5 * 60_000)).phase).toBe('Succeeded');
      expect(calls).toContain('/stack-install');
      expect(agentPodsOfWorkflows()).toBe('');
    } finally {
      await uninstallSharedAgentPods(state);
    }
  });
});
