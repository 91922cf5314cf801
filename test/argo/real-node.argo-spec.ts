// The real node (`npm run argo -- up --node real`; this suite runs with ARGO_NODE=real): a kubelet registered as
// a Ready Node running containerd, pods scheduled by kube-scheduler and run by runc from the images built here
// and pulled from the node's registry, Services resolved by CoreDNS, a workflow's container step run through
// argoexec's emissary in the alpine image, `kubectl logs`, `argo logs` and `kubectl exec` through the kubelet,
// and a pod's securityContext enforced by the runtime.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JenkinsStandIn } from '../../apps/build-trigger/stand-ins/jenkins/jenkins.stand-in.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { VERSIONED_MODULE, pinnedVersion } from '../../tools/argo-stack/src/versions.js';
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
  examples,
} from './support/cluster.js';
import { declaring, installPlugin, pluginManifest, workflowLevelExample } from './support/plugins.js';
import { standInsOnStack } from './support/upstreams.js';

const NAMESPACE = 'ep-real-node';
const BUILD_TRIGGER = 'build-trigger';
const JOB = 'platform/app-build';
const kubeVersion = () => {
  const file = join(repoRoot, 'tools/argo-stack/go/kube/go.mod');
  return pinnedVersion(readFileSync(file, 'utf8'), VERSIONED_MODULE.kube, file);
};

interface NodeObject {
  status: {
    conditions: Array<{ type: string; status: string }>;
    nodeInfo: { kubeletVersion: string; containerRuntimeVersion: string; kubeProxyVersion?: string };
  };
}

interface PodObject {
  spec: { nodeName?: string };
  status: {
    phase: string;
    containerStatuses?: Array<{ name: string; image: string; imageID: string; containerID?: string }>;
  };
}

describe('the real node', () => {
  let state: StackState;
  const jenkins = new JenkinsStandIn({
    user: 'argo-bot',
    apiToken: 'real-node-test-token-0123456789abcdef',
    rootUrl: 'https://jenkins.example.com/',
  });
  afterAll(() => jenkins.close());

  beforeAll(async () => {
    state = realNodeStack();
    await prepareNamespace(state, NAMESPACE);
  });

  it('is a Ready Node whose kubelet is the pinned Kubernetes release and whose runtime is containerd', () => {
    const node = JSON.parse(
      kubectl(state, ['get', 'node', state.realNode!.name, '-o', 'json']),
    ) as NodeObject;
    expect(node.status.conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(node.status.nodeInfo.kubeletVersion).toBe(kubeVersion());
    expect(node.status.nodeInfo.containerRuntimeVersion).toMatch(/^containerd:\/\/1\.6\.\d+/);
  });

  /** Runs a pod to its end; answers its phase, its log and its events. */
  async function runPod(name: string, spec: Record<string, unknown>, ended = ['Succeeded', 'Failed']) {
    await kubectlAsync(
      state,
      ['apply', '-n', NAMESPACE, '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec }),
    );
    const phase = await until(`the pod ${name} ended`, 120, () => {
      const pod = JSON.parse(kubectl(state, ['get', 'pod', '-n', NAMESPACE, name, '-o', 'json'])) as {
        status: { phase: string; containerStatuses?: Array<{ state: { waiting?: { reason: string } } }> };
      };
      const waiting = pod.status.containerStatuses?.[0]?.state.waiting?.reason;
      if (waiting === 'ErrImagePull' || waiting === 'ImagePullBackOff') return waiting;
      return ended.includes(pod.status.phase) ? pod.status.phase : undefined;
    });
    const events = kubectl(state, [
      'get',
      'events',
      '-n',
      NAMESPACE,
      '--field-selector',
      `involvedObject.name=${name}`,
      '-o',
      'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
    ]);
    const log =
      phase === 'Succeeded' || phase === 'Failed' ? kubectl(state, ['logs', '-n', NAMESPACE, name]) : '';
    await kubectlAsync(state, ['delete', 'pod', '-n', NAMESPACE, name, '--grace-period=1']);
    return { phase, log, events };
  }

  it("pulls a pod's image from the node's registry, and resolves Services by cluster DNS", async () => {
    const argoVersion = pinnedVersion(
      readFileSync(join(repoRoot, 'tools/argo-stack/go/argo/go.mod'), 'utf8'),
      VERSIONED_MODULE.argo,
      'go.mod',
    );
    const pod = await runPod('dns-and-pull', {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      containers: [
        {
          name: 'main',
          image: 'alpine:3.20',
          // Always: pulled for this pod, whatever the node already has.
          imagePullPolicy: 'Always',
          command: ['sh', '-c'],
          args: [
            'nslookup argo-server.argo.svc.cluster.local && nslookup kubernetes.default.svc.cluster.local && wget -qO- http://argo-server.argo:2746/api/v1/version',
          ],
        },
      ],
    });
    expect(pod.phase).toBe('Succeeded');
    expect(pod.log).toMatch(/^Server:\s+10\.96\.0\.10$/m);
    expect(pod.log).toMatch(/^Name:\s+argo-server\.argo\.svc\.cluster\.local\nAddress: 10\.96\.\d+\.\d+$/m);
    expect(pod.log).toMatch(/^Name:\s+kubernetes\.default\.svc\.cluster\.local\nAddress: 10\.96\.0\.1$/m);
    expect(JSON.parse(pod.log.slice(pod.log.indexOf('{'))) as { version: string }).toMatchObject({
      version: argoVersion,
    });
    const pulled = /^Pulled: Successfully pulled image "alpine:3\.20" in (\S+) /m.exec(pod.events);
    expect(pulled).not.toBeNull();
    console.log(`alpine:3.20 pulled from the node's registry in ${pulled![1]}`);

    // An image the registry does not hold: asked of the mirror first, then of docker.io, which is out of reach.
    const missing = await runPod('not-pushed', {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      containers: [{ name: 'main', image: 'docker.io/library/alpine:0.0-not-pushed', command: ['true'] }],
    });
    expect(missing.phase).toMatch(/^(ErrImagePull|ImagePullBackOff)$/);
    const registryLog = readFileSync(join(state.dir, 'logs/registry.log'), 'utf8');
    expect(registryLog).toMatch(
      /"(GET|HEAD) \/v2\/docker\.io\/library\/alpine\/manifests\/0\.0-not-pushed[^"]*" 404 \d+ "" "containerd\//,
    );
  });

  it("runs a workflow's alpine container step through argoexec, and kubectl logs and argo logs read its output", async () => {
    const doc: ManifestDoc = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { generateName: 'real-node-step-' },
      spec: {
        entrypoint: 'main',
        podGC: { strategy: 'OnWorkflowCompletion', deleteDelayDuration: '10m' },
        templates: [
          {
            name: 'main',
            container: {
              image: 'alpine:3.20',
              command: ['sh', '-c'],
              args: ['echo "step on $(hostname) as $(id -u)"; grep memory /proc/self/cgroup'],
            },
          },
        ],
      },
    };
    const name = await create(state, NAMESPACE, doc);
    const outcome = await waitForWorkflow(state, NAMESPACE, name, 5 * 60_000);
    expect(outcome.phase).toBe('Succeeded');
    const pods = JSON.parse(
      kubectl(state, [
        'get',
        'pods',
        '-n',
        NAMESPACE,
        '-l',
        `workflows.argoproj.io/workflow=${name}`,
        '-o',
        'json',
      ]),
    ) as { items: PodObject[] };
    expect(pods.items).toHaveLength(1);
    const [pod] = pods.items;
    expect(pod.spec.nodeName).toBe(state.realNode!.name);
    const main = pod.status.containerStatuses!.find((c) => c.name === 'main')!;
    expect(main.image).toBe('docker.io/library/alpine:3.20');
    expect(main.imageID).toMatch(/sha256:[0-9a-f]{64}/);
    expect(main.containerID).toMatch(/^containerd:\/\//);
    const podName = kubectl(state, [
      'get',
      'pods',
      '-n',
      NAMESPACE,
      '-l',
      `workflows.argoproj.io/workflow=${name}`,
      '-o',
      'jsonpath={.items[0].metadata.name}',
    ]);
    const logs = kubectl(state, ['logs', '-n', NAMESPACE, podName, '-c', 'main']);
    expect(logs).toMatch(/^step on \S+ as 0$/m);
    const argoLogs = execFileSync(
      join(state.bin.argo, 'argo'),
      ['logs', '--no-color', '-n', NAMESPACE, name],
      {
        encoding: 'utf8',
        env: { ...process.env, KUBECONFIG: join(state.dir, 'kubeconfig') },
      },
    );
    expect(argoLogs).toMatch(new RegExp(`^${podName}: step on \\S+ as 0$`, 'm'));
    // The container's own memory cgroup, below the kubelet's kubepods of the node's cgroup root.
    expect(logs).toContain(`memory:${state.realNode!.cgroupRoot}/kubepods/`);
  });

  it('enforces a pod securityContext (UID 65532, read-only root) and kubectl exec runs in the container', async () => {
    const pod = 'secured';
    await kubectlAsync(
      state,
      ['apply', '-n', NAMESPACE, '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: pod },
        spec: {
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532 },
          containers: [
            {
              name: 'main',
              image: 'alpine:3.20',
              command: ['sleep', '3600'],
              securityContext: {
                readOnlyRootFilesystem: true,
                allowPrivilegeEscalation: false,
                capabilities: { drop: ['ALL'] },
              },
            },
          ],
        },
      }),
    );
    await until('the secured pod Running', 120, () =>
      kubectl(state, ['get', 'pod', '-n', NAMESPACE, pod, '-o', 'jsonpath={.status.phase}']) === 'Running'
        ? true
        : undefined,
    );
    expect(kubectl(state, ['exec', '-n', NAMESPACE, pod, '--', 'id', '-u']).trim()).toBe('65532');
    const write = await kubectlAsync(state, [
      'exec',
      '-n',
      NAMESPACE,
      pod,
      '--',
      'sh',
      '-c',
      'touch /probe 2>&1; echo "exit $?"',
    ]);
    expect(write).toMatch(/Read-only file system/);
    expect(write).toMatch(/exit 1/);
    await kubectlAsync(state, ['delete', 'pod', '-n', NAMESPACE, pod, '--grace-period=1']);
  });

  /** The agent pod of a workflow once the sidecar `container` runs in it, and that container's status. */
  const runningSidecar = (workflow: string, container: string) =>
    until(`the agent pod of ${workflow} running ${container}`, 180, () => {
      const pods = JSON.parse(
        kubectl(state, [
          'get',
          'pods',
          '-n',
          NAMESPACE,
          '-l',
          `workflows.argoproj.io/component=agent,workflows.argoproj.io/workflow=${workflow}`,
          '-o',
          'json',
        ]),
      ) as { items: Array<PodObject & { metadata: { name: string } }> };
      const pod = pods.items[0];
      const status = pod?.status.containerStatuses?.find((c) => c.name === container);
      return status && (status as { state?: { running?: unknown } }).state?.running
        ? { pod, status }
        : undefined;
    });

  const jenkinsEnv = {
    JENKINS_URL: '',
    JENKINS_USER: 'argo-bot',
    JENKINS_API_TOKEN: 'real-node-test-token-0123456789abcdef',
  };
  const jenkinsExample = () =>
    examples(BUILD_TRIGGER, { quick: true }).find((e) => e.file.endsWith('/jenkins-build.yaml'))!;

  it("runs the build trigger's Jenkins example to Succeeded: its sidecar, our image, reads the agent's token as UID 65532 in group 0", async () => {
    standInsOnStack(state);
    // Long enough to look into the sidecar while the build runs.
    jenkins.addJob(JOB, { parameters: ['TARGET', 'ARGO_KEY'], queue: { polls: 1 }, build: { ms: 15_000 } });
    await jenkins.start();
    jenkinsEnv.JENKINS_URL = jenkins.url;
    await installPlugin(state, NAMESPACE, BUILD_TRIGGER, jenkinsEnv);
    const sidecar = pluginManifest(BUILD_TRIGGER).spec.sidecar.container;
    const name = await create(state, NAMESPACE, jenkinsExample().doc);
    const agent = await runningSidecar(name, sidecar.name);
    expect(agent.status.image).toBe(sidecar.image);
    expect(agent.status.imageID).toMatch(/sha256:[0-9a-f]{64}/);
    const exec = (...command: string[]) =>
      kubectl(state, [
        'exec',
        '-n',
        NAMESPACE,
        agent.pod.metadata.name,
        '-c',
        sidecar.name,
        '--',
        ...command,
      ]);
    expect(exec('id', '-u').trim()).toBe('65532');
    expect(exec('id', '-g').trim()).toBe('0');
    // Argo's agent init (UID 8737, group 0) wrote the token 0440: readable through the group.
    expect(exec('stat', '-c', '%u:%g %a', '/var/run/argo/token').trim()).toBe('8737:0 440');
    const outcome = await waitForWorkflow(state, NAMESPACE, name, 5 * 60_000);
    expect({ phase: outcome.phase, message: outcome.message }).toEqual({
      phase: 'Succeeded',
      message: undefined,
    });
    expect(jenkins.builds(JOB).map((b) => b.result)).toEqual(['SUCCESS']);
  });

  it('with the group of the image (runAsGroup: 65532) the sidecar cannot read the token, and every call is 403', async () => {
    const plugins = workflowLevelExample(BUILD_TRIGGER, jenkinsEnv).plugins.map((p) => ({
      ...p,
      spec: {
        ...p.spec,
        sidecar: {
          ...p.spec.sidecar,
          container: {
            ...p.spec.sidecar.container,
            securityContext: {
              ...(p.spec.sidecar.container.securityContext as Record<string, unknown>),
              runAsGroup: 65532,
            },
          },
        },
      },
    }));
    const name = await create(state, NAMESPACE, declaring(jenkinsExample().doc, plugins));
    const outcome = await waitForWorkflow(state, NAMESPACE, name, 5 * 60_000);
    expect(outcome.phase).toBe('Failed');
    const attempts = Object.values(outcome.nodes).filter((n) => n.type === 'Plugin');
    expect(attempts.length).toBeGreaterThan(0);
    for (const attempt of attempts) expect(attempt.message).toMatch(/403/);
  });
});
