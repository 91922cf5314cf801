// A plugin's sidecar under the real node's runtime, with the build trigger's manifests exactly as shipped, in a
// namespace that enforces the restricted Pod Security profile: the root filesystem is read-only to UID 65532, the
// sidecar gets no service-account token, its image holds only the bundle, an image that runs as root is refused
// under runAsNonRoot, and a sidecar pushed past its memory limit is OOMKilled, restarted by the kubelet, and its
// step still ends once.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JenkinsStandIn } from '../../apps/build-trigger/stand-ins/jenkins/jenkins.stand-in.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import {
  create,
  examples,
  kubectl,
  kubectlAsync,
  prepareNamespace,
  realNodeStack,
  until,
  waitForWorkflow,
} from './support/cluster.js';
import { installPlugin, pluginManifest } from './support/plugins.js';
import { reportText, reportWorkflow } from './support/report.js';
import { workflowSeconds } from './support/runs.js';
import { standInsOnStack } from './support/upstreams.js';

const NAMESPACE = 'ep-real-node-sidecar';
const APP = 'build-trigger';
const CREDENTIALS = { user: 'argo-bot', apiToken: 'real-node-sidecar-token-0123456789abcdef' };

interface ContainerStatus {
  name: string;
  image: string;
  restartCount: number;
  state?: { running?: unknown; waiting?: { reason?: string; message?: string } };
  lastState?: { terminated?: { reason?: string; exitCode?: number } };
}

interface Pod {
  metadata: { name: string };
  spec: { containers: Array<{ name: string; volumeMounts?: Array<{ mountPath: string }> }> };
  status: { phase: string; containerStatuses?: ContainerStatus[] };
}

describe("a plugin's sidecar on the real node, as its manifests ship it", () => {
  let state: StackState;
  const jenkins = new JenkinsStandIn({ ...CREDENTIALS, rootUrl: 'https://jenkins.example.com/' });
  const sidecar = pluginManifest(APP).spec.sidecar.container as {
    name: string;
    image: string;
    securityContext: Record<string, unknown>;
  };

  beforeAll(async () => {
    state = realNodeStack();
    standInsOnStack(state);
    await jenkins.start();
    await prepareNamespace(state, NAMESPACE);
    // Our manifests claim they fit the restricted profile: the API server admits no pod of this namespace that
    // does not (Argo's agent pod included).
    await kubectlAsync(state, [
      'label',
      '--overwrite',
      'namespace',
      NAMESPACE,
      'pod-security.kubernetes.io/enforce=restricted',
    ]);
    await installPlugin(state, NAMESPACE, APP, {
      JENKINS_URL: jenkins.url,
      JENKINS_USER: CREDENTIALS.user,
      JENKINS_API_TOKEN: CREDENTIALS.apiToken,
    });
  });
  afterAll(() => jenkins.close());

  const agentPod = (workflow: string): Pod | undefined =>
    (
      JSON.parse(
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
      ) as { items: Pod[] }
    ).items[0];
  const sidecarStatus = (pod: Pod | undefined) =>
    pod?.status.containerStatuses?.find((c) => c.name === sidecar.name);
  /** The Jenkins example with a job of its own whose build runs `buildMs`, its agent pod once the sidecar runs. */
  const startBuild = async (job: string, buildMs: number) => {
    jenkins.addJob(job, { parameters: ['TARGET', 'ARGO_KEY'], queue: { polls: 1 }, build: { ms: buildMs } });
    const example = examples(APP, { quick: true }).find((e) => e.file.endsWith('/jenkins-build.yaml'))!;
    const doc = JSON.parse(
      JSON.stringify(example.doc).replaceAll('platform/app-build', job),
    ) as typeof example.doc;
    const name = await create(state, NAMESPACE, doc);
    const pod = await until(`the agent pod of ${name} running its sidecar`, 180, () => {
      const found = agentPod(name);
      return sidecarStatus(found)?.state?.running ? found : undefined;
    });
    const exec = (script: string) =>
      kubectlAsync(state, [
        'exec',
        '-n',
        NAMESPACE,
        pod.metadata.name,
        '-c',
        sidecar.name,
        '--',
        'sh',
        '-c',
        script,
      ]);
    return { name, pod, exec, file: example.file };
  };

  it('runs as UID 65532 on a read-only root, with no service-account token, from an image that holds only the bundle', async () => {
    const job = 'platform/sidecar-checks';
    const { name, pod, exec } = await startBuild(job, 15_000);
    expect((await exec('id -u')).trim()).toBe('65532');
    const writes = await exec(
      'for f in /probe /app/probe /tmp/probe; do touch $f 2>&1 || echo "$f refused"; done',
    );
    expect(writes).toMatch(/\/probe: Read-only file system/);
    expect(writes.match(/refused/g)).toHaveLength(3);
    // Argo mounts a token into the sidecar only when its ConfigMap asks (sidecar.automountServiceAccountToken).
    expect(
      pod.spec.containers
        .find((c) => c.name === sidecar.name)!
        .volumeMounts?.map((m) => m.mountPath)
        .filter((p) => p.startsWith('/var/run/secrets')),
    ).toEqual([]);
    expect(await exec('ls /var/run/secrets/kubernetes.io/serviceaccount 2>&1; echo "exit $?"')).toMatch(
      /No such file or directory\s+exit 1/,
    );
    // The bundle: JavaScript and a package.json, nothing installed, no sources.
    const files = (await exec('cd /app && find . -type f')).split('\n').filter(Boolean);
    expect(files).toContain('./main.js');
    expect(files.filter((f) => !/\.(js|json)$/.test(f) || /node_modules|\.ts$/.test(f))).toEqual([]);
    const appKiB = Number((await exec('du -sk /app')).split(/\s/)[0]);
    const image = execFileSync(
      'ctr',
      [
        '--address',
        state.realNode!.containerdSocket,
        '--namespace',
        'k8s.io',
        'images',
        'ls',
        `name==${sidecar.image}`,
      ],
      { encoding: 'utf8' },
    );
    const size = / (\d+(?:\.\d+)? [KMG]iB) /.exec(image)?.[1];
    expect(size).toBeDefined();
    reportText([
      `image ${sidecar.image}: ${size} in containerd, /app ${appKiB} KiB in ${files.length} files`,
    ]);
    const outcome = await waitForWorkflow(state, NAMESPACE, name, 5 * 60_000);
    expect(outcome.phase).toBe('Succeeded');
  });

  it('is OOMKilled past its memory limit, restarted by the kubelet, and its step ends once', async () => {
    const job = 'platform/sidecar-oom';
    const { name, pod, exec, file } = await startBuild(job, 40_000);
    await until('a running build', 120, () =>
      jenkins.builds(job).some((b) => b.building) ? true : undefined,
    );
    // The container's memory filled past its limit by 30 small shells of 6 MB each (180 MB in all, so that a
    // container without a limit does not fill the machine's): the kernel's OOM killer takes the largest process
    // of the cgroup, the plugin's, and the container's other processes end with it.
    await exec(
      'for i in $(seq 30); do (x=$(head -c 6000000 /dev/zero | tr "\\0" a); sleep 60) & done; wait',
    ).catch(() => undefined);
    // Restarted in place: the same agent pod.
    const restarted = await until('the sidecar restarted', 120, () => {
      const now = agentPod(name);
      const status = sidecarStatus(now);
      return now?.metadata.name === pod.metadata.name &&
        status &&
        status.restartCount > 0 &&
        status.state?.running
        ? status
        : undefined;
    });
    expect(restarted.lastState?.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    const outcome = await waitForWorkflow(state, NAMESPACE, name, 5 * 60_000);
    reportWorkflow({
      what: `${file} (sidecar OOMKilled)`,
      pass: 'real-node',
      phase: outcome.phase,
      expected: 'Succeeded',
      seconds: workflowSeconds(outcome),
      message: outcome.message,
    });
    expect(outcome.phase).toBe('Succeeded');
    const attempts = Object.values(outcome.nodes).filter((n) => n.type === 'Plugin');
    expect(attempts.map((n) => n.phase)).toEqual(['Succeeded']);
    expect(jenkins.queueItems(job)).toBe(1);
    expect(jenkins.builds(job).map((b) => b.result)).toEqual(['SUCCESS']);
  });

  it("refuses an image whose user is root under the sidecar's runAsNonRoot, and runs ours as its own USER", async () => {
    // The sidecar's securityContext as shipped, without the user and group it names: the image's user decides.
    const { runAsUser: _user, runAsGroup: _group, ...imageUser } = sidecar.securityContext;
    const pod = (name: string, image: string) =>
      kubectlAsync(
        state,
        ['apply', '-n', NAMESPACE, '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name },
          spec: {
            automountServiceAccountToken: false,
            containers: [{ name: 'main', image, command: ['sleep', '3600'], securityContext: imageUser }],
          },
        }),
      );
    await pod('root-image', 'alpine:3.20');
    await pod('plugin-image', sidecar.image);
    const status = (name: string) =>
      (JSON.parse(kubectl(state, ['get', 'pod', '-n', NAMESPACE, name, '-o', 'json'])) as Pod).status
        .containerStatuses?.[0];
    const refused = await until(
      'the root image refused',
      120,
      () => status('root-image')?.state?.waiting?.message,
    );
    expect(status('root-image')?.state?.waiting?.reason).toBe('CreateContainerConfigError');
    expect(refused).toMatch(/^container has runAsNonRoot and image will run as root/);
    await until('our image running', 120, () => (status('plugin-image')?.state?.running ? true : undefined));
    expect(kubectl(state, ['exec', '-n', NAMESPACE, 'plugin-image', '--', 'id', '-u']).trim()).toBe('65532');
    await kubectlAsync(state, [
      'delete',
      'pod',
      '-n',
      NAMESPACE,
      'root-image',
      'plugin-image',
      '--grace-period=1',
    ]);
  });
});
