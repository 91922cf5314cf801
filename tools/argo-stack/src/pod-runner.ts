// The stack's stand-in for a kubelet: it binds the pods nobody schedules to its node, runs each container as a
// process in the pod's own network namespace and mount namespace (volumes bound where the pod mounts them, env
// resolved from the API server, a service-account token from TokenRequest), reports the pod's phase and
// container states back, restarts containers as the restart policy says, and stops the processes when the pod
// is deleted. What it does not do is said in docs/testing.md: no images, no cgroups or resource limits, no
// users (processes run as the runner's user), no probes, no kubelet API (`kubectl logs`: the log files).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KubeClient, KubeError, type WatchEvent } from '@app/argo-agent/kube/kube-client.js';
import { createPodNetwork, deletePodNetwork, hostAddress, type PodNetwork } from './network.js';
import { containerEnv, Missing } from './container-env.js';
import { resolveImage, type ImageRoot, type ImageTable } from './images.js';
import { MOUNT_STAGE, mountScript, quote, type BindMount } from './mount-script.js';

/** The time a kubelet takes to start a container through the CRI, left between two containers of a pod. */
const CONTAINER_START_GAP_MS = 500;
import type {
  Container,
  ContainerStatus,
  DataObject,
  KeyToPath,
  Pod,
  ProjectionSource,
  Volume,
} from './pod-types.js';

export interface PodRunnerOptions {
  client: KubeClient;
  index: number;
  /** Where pods get their folders (volumes, logs). */
  dir: string;
  images: ImageTable;
  /** The API server's port on HOST_ADDR, for KUBERNETES_SERVICE_HOST/PORT. */
  apiServerPort: number;
  log: (fields: Record<string, unknown>) => void;
}

const now = () => new Date().toISOString();
const podKey = (pod: Pod) => `${pod.metadata.namespace}/${pod.metadata.name}`;

export class PodRunner {
  readonly nodeName: string;
  private readonly pods = new Map<string, RunningPod>();
  private readonly slots = new Set<number>();
  private readonly abort = new AbortController();

  constructor(private readonly options: PodRunnerOptions) {
    this.nodeName = `argo-stack-${options.index}`;
  }

  async start(): Promise<void> {
    await this.registerNode();
    void this.options.client.watch<Pod>('/api/v1/pods', (event) => this.onPod(event), this.abort.signal);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.all([...this.pods.values()].map((pod) => pod.terminate(2)));
  }

  private async registerNode(): Promise<void> {
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: this.nodeName,
        labels: { 'kubernetes.io/hostname': this.nodeName, 'kubernetes.io/os': 'linux' },
      },
    };
    try {
      await this.options.client.call('POST', '/api/v1/nodes', node);
    } catch (err) {
      if (!(err instanceof KubeError && err.status === 409)) throw err;
    }
    await this.options.client.mergePatch(`/api/v1/nodes/${this.nodeName}/status`, {
      status: {
        addresses: [{ type: 'InternalIP', address: hostAddress(this.options.index) }],
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'PodRunnerReady',
            lastHeartbeatTime: now(),
            lastTransitionTime: now(),
          },
        ],
        capacity: { cpu: '2', memory: '24Gi', pods: '250' },
        allocatable: { cpu: '2', memory: '24Gi', pods: '250' },
      },
    });
  }

  private async onPod(event: WatchEvent<Pod>): Promise<void> {
    const pod = event.object;
    const key = podKey(pod);
    if (event.type === 'DELETED') {
      await this.pods.get(key)?.terminate(0);
      this.forget(key);
      return;
    }
    if (!pod.spec.nodeName) {
      if ((pod.spec.schedulerName ?? 'default-scheduler') === 'default-scheduler') await this.bind(pod);
      return;
    }
    if (pod.spec.nodeName !== this.nodeName) return;
    let running = this.pods.get(key);
    if (running && running.uid !== pod.metadata.uid) {
      await running.terminate(0);
      this.forget(key);
      running = undefined;
    }
    if (pod.metadata.deletionTimestamp) {
      void this.delete(pod, running);
      return;
    }
    if (!running && !['Succeeded', 'Failed'].includes(pod.status?.phase ?? '')) {
      const slot = this.takeSlot();
      running = new RunningPod(pod, slot, this.options, () => this.releaseSlot(slot));
      this.pods.set(key, running);
      void running.run();
    }
  }

  private async bind(pod: Pod): Promise<void> {
    try {
      await this.options.client.call(
        'POST',
        `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/binding`,
        {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: pod.metadata.name, uid: pod.metadata.uid },
          target: { apiVersion: 'v1', kind: 'Node', name: this.nodeName },
        },
      );
    } catch (err) {
      if (!(err instanceof KubeError && (err.status === 409 || err.status === 404))) throw err;
    }
  }

  /** A deleted pod: stop its containers within its grace period, then remove it (what a kubelet confirms). */
  private async delete(pod: Pod, running: RunningPod | undefined): Promise<void> {
    this.options.log({ msg: 'deleting', pod: podKey(pod), running: !!running });
    await running?.terminate(pod.metadata.deletionGracePeriodSeconds ?? 30);
    this.forget(podKey(pod));
    try {
      await this.options.client.call(
        'DELETE',
        `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`,
        {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          gracePeriodSeconds: 0,
          preconditions: { uid: pod.metadata.uid },
        },
      );
    } catch (err) {
      if (!(err instanceof KubeError && (err.status === 404 || err.status === 409))) throw err;
    }
  }

  private forget(key: string): void {
    this.pods.delete(key);
  }

  private takeSlot(): number {
    for (let slot = 2; slot < 255; slot++) {
      if (!this.slots.has(slot)) {
        this.slots.add(slot);
        return slot;
      }
    }
    throw new Error('no free pod address: 253 pods run at once');
  }

  private releaseSlot(slot: number): void {
    deletePodNetwork(this.options.index, slot);
    this.slots.delete(slot);
  }
}

interface ContainerRun {
  spec: Container;
  image: ImageRoot;
  child?: ChildProcess;
  status: ContainerStatus;
  /** Set while a restart is scheduled. */
  restartTimer?: NodeJS.Timeout;
  exited?: Promise<number>;
}

/** One pod on the node, from its volumes to its last container. */
class RunningPod {
  readonly uid: string;
  private readonly dir: string;
  private network?: PodNetwork;
  private readonly init: ContainerRun[] = [];
  private readonly main: ContainerRun[] = [];
  private stopping = false;
  private done = false;
  private statusChain: Promise<unknown> = Promise.resolve();
  private phase = 'Pending';
  private startTime?: string;

  constructor(
    private readonly pod: Pod,
    private readonly slot: number,
    private readonly options: PodRunnerOptions,
    private readonly release: () => void,
  ) {
    this.uid = pod.metadata.uid;
    this.dir = join(
      options.dir,
      'pods',
      `${pod.metadata.namespace}_${pod.metadata.name}_${pod.metadata.uid.slice(0, 8)}`,
    );
  }

  private get client(): KubeClient {
    return this.options.client;
  }

  private log(fields: Record<string, unknown>): void {
    this.options.log({ pod: podKey(this.pod), ...fields });
  }

  async run(): Promise<void> {
    try {
      this.network = createPodNetwork(this.options.index, this.slot);
      this.startTime = now();
      const images = [...(this.pod.spec.initContainers ?? []), ...this.pod.spec.containers].map((c) =>
        resolveImage(c.image, this.options.images),
      );
      const problem = images.find((i): i is string => typeof i === 'string');
      if (problem) return await this.fail('ErrImagePull', problem);
      const volumes = await this.waitFor('ContainerCreating', () => this.prepareVolumes());
      if (!volumes) return;
      (this.pod.spec.initContainers ?? []).forEach((spec, i) =>
        this.init.push(this.containerRun(spec, images[i] as ImageRoot)),
      );
      const offset = this.init.length;
      this.pod.spec.containers.forEach((spec, i) =>
        this.main.push(this.containerRun(spec, images[offset + i] as ImageRoot)),
      );
      await this.report();
      for (const run of this.init) {
        while (!this.stopping) {
          const code = await this.startContainer(run, volumes);
          if (code === 0) break;
          if (this.pod.spec.restartPolicy === 'Never')
            return await this.fail('Init:Error', `init container ${run.spec.name} exited ${code}`);
          await new Promise((r) => setTimeout(r, this.backoff(run)));
          run.status.restartCount++;
        }
      }
      if (this.stopping) return;
      this.phase = 'Running';
      // A kubelet starts the containers one after the other in the order of the spec (an agent pod's plugin
      // sidecars before its main), each once the one before it is started or cannot be (missing settings).
      // Starting one through the CRI takes it hundreds of milliseconds, so a sidecar has begun to listen before
      // main starts; a process here starts in a few, and the agent's first call found no plugin listening yet
      // (refused, then retried after Argo's 1 s backoff): the runner leaves that much time between containers.
      let previous: Promise<void> = Promise.resolve();
      const loops = this.main.map((run) => {
        const after = previous;
        let started!: () => void;
        previous = new Promise<void>(
          (resolve) => (started = () => setTimeout(resolve, CONTAINER_START_GAP_MS)),
        );
        return after.then(() => this.keepRunning(run, volumes, started));
      });
      await Promise.all(loops);
      if (!this.stopping) await this.finish();
    } catch (err) {
      this.log({ msg: 'pod failed in the runner', error: (err as Error).message });
      await this.fail('RunnerError', (err as Error).message).catch(() => undefined);
    }
  }

  /**
   * Runs a container, restarting it as the pod's restart policy says, until it stays down; `started` is called
   * once its process runs or its settings are waited for.
   */
  private async keepRunning(
    run: ContainerRun,
    volumes: Map<string, string>,
    started: () => void,
  ): Promise<void> {
    const policy = this.pod.spec.restartPolicy ?? 'Always';
    for (;;) {
      const code = await this.startContainer(run, volumes, started);
      if (this.stopping) return;
      if (policy === 'Never' || (policy === 'OnFailure' && code === 0)) return;
      const delay = this.backoff(run);
      run.status.state = {
        waiting: { reason: 'CrashLoopBackOff', message: `back-off ${delay} ms restarting failed container` },
      };
      await this.report();
      await new Promise<void>((resolve) => (run.restartTimer = setTimeout(resolve, delay)));
      run.restartTimer = undefined;
      if (this.stopping) return;
      run.status.restartCount++;
    }
  }

  /** 1 s, doubling to 10 s: a kubelet starts at 10 s; the stack restarts faster so tests stay short. */
  private backoff(run: ContainerRun): number {
    return Math.min(10_000, 1000 * 2 ** run.status.restartCount);
  }

  private containerRun(spec: Container, image: ImageRoot): ContainerRun {
    const waiting = { waiting: { reason: 'PodInitializing' } };
    return {
      spec,
      image,
      status: {
        name: spec.name,
        image: spec.image,
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: waiting,
        lastState: {},
      },
    };
  }

  /**
   * Starts one container process and resolves with its exit code once it ends; `started` is called once the
   * process runs or its settings are missing.
   */
  private async startContainer(
    run: ContainerRun,
    volumes: Map<string, string>,
    started: () => void = () => undefined,
  ): Promise<number> {
    const env = await this.waitFor('CreateContainerConfigError', () => this.resolveEnv(run.spec), started);
    started();
    if (!env || this.stopping) return 1;
    const argv = this.argv(run, env);
    const mounts: BindMount[] = [...run.image.mounts];
    for (const mount of run.spec.volumeMounts ?? []) {
      const base = volumes.get(mount.name);
      if (base === undefined)
        throw new Error(`container ${run.spec.name} mounts unknown volume ${mount.name}`);
      const source = mount.subPath ? join(base, mount.subPath) : base;
      if (!existsSync(source)) mkdirSync(source, { recursive: true });
      mounts.push({ source, target: mount.mountPath, readOnly: mount.readOnly });
    }
    mkdirSync(MOUNT_STAGE, { recursive: true });
    const script = [
      'set -e',
      ...mountScript(mounts),
      `cd ${quote(run.spec.workingDir ?? run.image.workingDir)}`,
      'exec "$@"',
    ].join('\n');
    mkdirSync(join(this.dir, 'logs'), { recursive: true });
    const logFile = join(this.dir, 'logs', `${run.spec.name}.log`);
    const fd = openSync(logFile, 'a');
    const child = spawn(
      'ip',
      ['netns', 'exec', this.network!.namespace, '/bin/sh', '-c', script, run.spec.name, ...argv],
      {
        env,
        stdio: ['ignore', fd, fd],
        detached: true,
      },
    );
    closeSync(fd);
    run.child = child;
    const startedAt = now();
    run.status.state = { running: { startedAt } };
    run.status.started = true;
    run.status.ready = true;
    this.log({ msg: 'container started', container: run.spec.name, pid: child.pid, argv: argv.slice(0, 3) });
    void this.report();
    run.exited = new Promise<number>((resolve) => {
      child.on('error', () => resolve(127));
      child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? signalNumber(signal) : 0)));
    });
    const code = await run.exited;
    run.child = undefined;
    run.status.ready = false;
    run.status.lastState = run.status.state;
    run.status.state = {
      terminated: {
        exitCode: code,
        reason: code === 0 ? 'Completed' : 'Error',
        startedAt,
        finishedAt: now(),
      },
    };
    this.log({ msg: 'container exited', container: run.spec.name, exitCode: code });
    if (!this.stopping) await this.report();
    return code;
  }

  private argv(run: ContainerRun, env: Record<string, string>): string[] {
    const expand = (s: string) =>
      s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) =>
        name === undefined ? '$' : (env[name] ?? m),
      );
    const command = run.spec.command ?? run.image.entrypoint;
    const args = run.spec.command ? (run.spec.args ?? []) : (run.spec.args ?? []);
    const argv = [...command, ...args].map(expand);
    if (argv.length === 0)
      throw new Error(`container ${run.spec.name}: no command and no known entrypoint for ${run.spec.image}`);
    return argv;
  }

  /**
   * Retries `fn` while it says what the pod waits for (a missing Secret or ConfigMap), as a kubelet does;
   * `waiting` is called at each miss.
   */
  private async waitFor<T>(
    reason: string,
    fn: () => Promise<T>,
    waiting: () => void = () => undefined,
  ): Promise<T | undefined> {
    for (let attempt = 0; !this.stopping; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof Missing)) throw err;
        waiting();
        if (attempt % 10 === 0) this.log({ msg: 'waiting', reason, detail: err.message });
        for (const run of [...this.init, ...this.main])
          run.status.state = { waiting: { reason, message: err.message } };
        await this.report();
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    return undefined;
  }

  private async prepareVolumes(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const volume of this.pod.spec.volumes ?? []) {
      const dir = join(this.dir, 'volumes', volume.name);
      mkdirSync(dir, { recursive: true });
      await this.fillVolume(volume, dir);
      out.set(volume.name, dir);
    }
    return out;
  }

  private async fillVolume(volume: Volume, dir: string): Promise<void> {
    if (volume.secret) {
      const data = await this.data('secrets', volume.secret.secretName, volume.secret.optional);
      writeItems(dir, data, volume.secret.items);
    } else if (volume.configMap) {
      const data = await this.data('configmaps', volume.configMap.name, volume.configMap.optional);
      writeItems(dir, data, volume.configMap.items);
    } else if (volume.projected) {
      for (const source of volume.projected.sources) await this.project(source, dir);
    } else if (volume.downwardAPI) {
      for (const item of volume.downwardAPI.items)
        writeFile(dir, item.path, item.fieldRef ? this.field(item.fieldRef.fieldPath) : '');
    } else if (!volume.emptyDir) {
      throw new Error(
        `volume ${volume.name}: only emptyDir, secret, configMap, projected and downwardAPI volumes run here`,
      );
    }
  }

  private async project(source: ProjectionSource, dir: string): Promise<void> {
    if (source.serviceAccountToken)
      writeFile(dir, source.serviceAccountToken.path, await this.token(source.serviceAccountToken));
    if (source.configMap)
      writeItems(
        dir,
        await this.data('configmaps', source.configMap.name, source.configMap.optional),
        source.configMap.items,
      );
    if (source.secret)
      writeItems(
        dir,
        await this.data('secrets', source.secret.name, source.secret.optional),
        source.secret.items,
      );
    for (const item of source.downwardAPI?.items ?? [])
      writeFile(dir, item.path, item.fieldRef ? this.field(item.fieldRef.fieldPath) : '');
  }

  /** A token of the pod's service account, bound to the pod, from the TokenRequest API. */
  private async token(spec: { expirationSeconds?: number; audience?: string }): Promise<string> {
    const sa = this.pod.spec.serviceAccountName ?? 'default';
    const reply = await this.client.call<{ status: { token: string } }>(
      'POST',
      `/api/v1/namespaces/${this.pod.metadata.namespace}/serviceaccounts/${sa}/token`,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {
          audiences: spec.audience ? [spec.audience] : undefined,
          expirationSeconds: spec.expirationSeconds ?? 3607,
          boundObjectRef: {
            apiVersion: 'v1',
            kind: 'Pod',
            name: this.pod.metadata.name,
            uid: this.pod.metadata.uid,
          },
        },
      },
    );
    return reply.status.token;
  }

  /**
   * A Secret's or ConfigMap's data, decoded; a missing one the pod needs is waited for. `reads` keeps the
   * objects read for one container's env: one request per object, not per variable (a collection sidecar
   * has dozens of variables from four objects), as a kubelet's cache serves them.
   */
  private async data(
    kind: 'secrets' | 'configmaps',
    name: string,
    optional?: boolean,
    reads: Reads = new Map(),
  ): Promise<Record<string, string>> {
    const path = `/api/v1/namespaces/${this.pod.metadata.namespace}/${kind}/${name}`;
    if (!reads.has(path)) reads.set(path, this.client.find<StoredData>(path));
    const object = await reads.get(path)!;
    if (!object) {
      if (optional) return {};
      throw new Missing(`${kind === 'secrets' ? 'secret' : 'configmap'} "${name}" not found`);
    }
    if (kind === 'secrets' && object.type === 'kubernetes.io/service-account-token' && !object.data?.token) {
      throw new Missing(`secret "${name}" has no token yet`);
    }
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries(object.data ?? {}))
      data[k] = kind === 'secrets' ? Buffer.from(v, 'base64').toString('utf8') : v;
    return data;
  }

  private field(path: string): string {
    const m = this.pod.metadata;
    const labelOrAnnotation = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
    if (labelOrAnnotation)
      return (labelOrAnnotation[1] === 'labels' ? m.labels : m.annotations)?.[labelOrAnnotation[2]] ?? '';
    switch (path) {
      case 'metadata.name':
        return m.name;
      case 'metadata.namespace':
        return m.namespace;
      case 'metadata.uid':
        return m.uid;
      case 'spec.nodeName':
        return this.pod.spec.nodeName ?? '';
      case 'spec.serviceAccountName':
        return this.pod.spec.serviceAccountName ?? 'default';
      case 'status.podIP':
      case 'status.podIPs':
        return this.network?.address ?? '';
      case 'status.hostIP':
      case 'status.hostIPs':
        return hostAddress(this.options.index);
      default:
        throw new Error(`fieldRef ${path} is not supported by the pod runner`);
    }
  }

  private resolveEnv(container: Container): Promise<Record<string, string>> {
    const image = [...this.init, ...this.main].find((r) => r.spec === container)?.image;
    const base: Record<string, string> = {
      PATH: [
        ...resolveImagePath(container, this.main, this.init),
        process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      ].join(':'),
      HOSTNAME: this.pod.metadata.name,
      HOME: '/root',
      KUBERNETES_SERVICE_HOST: hostAddress(this.options.index),
      KUBERNETES_SERVICE_PORT: String(this.options.apiServerPort),
      KUBERNETES_SERVICE_PORT_HTTPS: String(this.options.apiServerPort),
      ...(image?.env ?? {}),
    };
    const reads: Reads = new Map();
    return containerEnv(container, base, {
      data: (kind, name, optional) => this.data(kind, name, optional, reads),
      field: (path) => this.field(path),
      namespace: this.pod.metadata.namespace,
    });
  }

  private async report(): Promise<void> {
    if (this.done && this.phase === 'Pending') return;
    const status = {
      phase: this.phase,
      hostIP: hostAddress(this.options.index),
      podIP: this.network?.address,
      podIPs: this.network ? [{ ip: this.network.address }] : undefined,
      startTime: this.startTime,
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        {
          type: 'Initialized',
          status: this.init.every((r) => r.status.state.terminated?.exitCode === 0) ? 'True' : 'False',
        },
        {
          type: 'ContainersReady',
          status: this.main.length > 0 && this.main.every((r) => r.status.ready) ? 'True' : 'False',
        },
        {
          type: 'Ready',
          status: this.main.length > 0 && this.main.every((r) => r.status.ready) ? 'True' : 'False',
        },
      ],
      initContainerStatuses: this.init.map((r) => ({
        ...r.status,
        ready: r.status.state.terminated?.exitCode === 0,
      })),
      containerStatuses: this.main.map((r) => r.status),
    };
    const path = `/api/v1/namespaces/${this.pod.metadata.namespace}/pods/${this.pod.metadata.name}/status`;
    this.statusChain = this.statusChain
      .then(() => this.client.mergePatch(path, { status }))
      .catch((err: unknown) => {
        if (!(err instanceof KubeError && err.status === 404))
          this.log({ msg: 'status patch failed', error: (err as Error).message });
      });
    await this.statusChain;
  }

  private async finish(): Promise<void> {
    const failed = this.main.some((r) => (r.status.state.terminated?.exitCode ?? 1) !== 0);
    this.phase = failed ? 'Failed' : 'Succeeded';
    await this.report();
    this.cleanUp();
  }

  private async fail(reason: string, message: string): Promise<void> {
    this.log({ msg: 'pod failed', reason, message });
    for (const run of [...this.init, ...this.main])
      if (!run.status.state.terminated) run.status.state = { waiting: { reason, message } };
    this.phase = 'Failed';
    await this.report();
    this.cleanUp();
  }

  /** Stops every container: SIGTERM, then SIGKILL after the grace period. */
  async terminate(graceSeconds: number): Promise<void> {
    this.stopping = true;
    const runs = [...this.init, ...this.main];
    for (const run of runs) if (run.restartTimer) clearTimeout(run.restartTimer);
    const live = runs.filter((r) => r.child?.pid !== undefined);
    for (const run of live) signalGroup(run.child!, 'SIGTERM');
    const all = Promise.all(live.map((r) => r.exited));
    const timer = new Promise((r) => setTimeout(r, Math.max(graceSeconds, 0.5) * 1000));
    if ((await Promise.race([all.then(() => 'exited'), timer])) !== 'exited') {
      for (const run of live) if (run.child) signalGroup(run.child, 'SIGKILL');
      await all;
    }
    this.cleanUp();
  }

  private cleanUp(): void {
    if (this.done) return;
    this.done = true;
    this.release();
  }

  /** For `down`: the pod folder goes with the stack folder. */
  removeFiles(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

type StoredData = DataObject & { type?: string };
/** The Secrets and ConfigMaps read for one container's env, by API path. */
type Reads = Map<string, Promise<StoredData | undefined>>;

function resolveImagePath(container: Container, ...runs: ContainerRun[][]): string[] {
  return runs.flat().find((r) => r.spec === container)?.image.path ?? [];
}

function writeItems(dir: string, data: Record<string, string>, items?: KeyToPath[]): void {
  if (!items) {
    for (const [key, value] of Object.entries(data)) writeFile(dir, key, value);
    return;
  }
  for (const item of items) if (item.key in data) writeFile(dir, item.path, data[item.key]);
}

function writeFile(dir: string, path: string, content: string): void {
  const file = join(dir, path);
  if (!file.startsWith(`${dir}/`)) throw new Error(`volume item path ${path} leaves its volume`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return { SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGSEGV: 11, SIGABRT: 6 }[signal as string] ?? 0;
}

/** `resourceFieldRef`: the container's limit (or request), in the divisor's unit. */
