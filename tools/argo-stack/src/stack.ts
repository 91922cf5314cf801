// `npm run argo -- up|down|status|env`: the real Argo Workflows stack as local processes — etcd, the Kubernetes
// API server and controller manager, Argo's CRDs, workflow-controller, argo server, and the pod runner in place
// of a kubelet (or a real node: real-node.ts) — in a folder of its own, with its own ports and its own bridge, so several stacks run side by side.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BINARIES, cacheRoot, ensureBinaries } from './binaries.js';
import { KubeClient } from '@app/argo-agent/kube/kube-client.js';
import { EXECUTOR_IMAGE } from './images.js';
import {
  cleanUpRealNode,
  drainRealNode,
  pushCheckoutImages,
  startRealNode,
  type RealNode,
} from './real-node.js';
import {
  bridgeName,
  createBridge,
  deleteBridge,
  deletePodNetwork,
  freeStackIndex,
  hostAddress,
  leftoverPodSlots,
} from './network.js';

export const ARGO_NAMESPACE = 'argo';

export interface StackProcess {
  name: string;
  pid: number;
  log: string;
  /** When the process started (/proc/<pid>/stat), so that its pid, once given to another process, is not it. */
  started?: string;
}

export interface StackState {
  dir: string;
  repoRoot: string;
  index: number;
  hostAddr: string;
  ports: { etcd: number; etcdPeer: number; apiServer: number; argoServer: number; controllerMetrics: number };
  bin: { argo: string; kube: string };
  adminToken: string;
  processes: StackProcess[];
  startedAt: string;
  /** Set when the stack runs the shared agent in place of agent pods (up --agent shared). */
  /** With `pods`, the replicas are manifests/shared-agent's Deployment on the real node, not processes. */
  sharedAgent?: { replicas: number; patchRate: string; ports: number[]; pods?: boolean };
  /** Set when a real node (kubelet, containerd) runs the pods in place of the pod runner (up --node real). */
  realNode?: RealNode;
}

export interface UpOptions {
  repoRoot: string;
  dir: string;
  /** Controller settings beyond the stack's own (e.g. disableAgentPodCreation). */
  controllerConfig?: Record<string, string>;
  /** Extra flags of workflow-controller (--qps, --burst, --workflow-workers). */
  controllerFlags?: string[];
  /** The controller's DEFAULT_REQUEUE_TIME, which is also the agent's status patch rate. */
  patchRate: string;
  log: (line: string) => void;
  /** Argument vector that starts the pod runner (`node dist/tools/argo.mjs run-pods --dir <dir>`). */
  podRunner: string[];
  /** `real`: the kubelet, containerd and runc run the pods (real-node.ts); `runner` (default): the pod runner. */
  node?: 'runner' | 'real';
  /** More processes to start once the stack is up (e.g. shared agents), with their env. */
  extra?: Array<{ name: string; argv: string[]; env: Record<string, string> }>;
}

/** The default stack folder of a checkout: one stack per clone unless --dir says otherwise. */
export function defaultStackDir(repoRoot: string): string {
  return (
    process.env.ARGO_STACK_DIR ??
    join(cacheRoot(), 'stacks', createHash('sha256').update(repoRoot).digest('hex').slice(0, 10))
  );
}

export function readState(dir: string): StackState | undefined {
  const file = join(dir, 'state.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StackState) : undefined;
}

/**
 * The stack's serving certificate (valid for HOST_ADDR and loopback) and its CA: what a stand-in that speaks
 * TLS serves on HOST_ADDR, so that the stack's pods can verify it.
 */
export function stackCertificate(state: StackState): { keyFile: string; certFile: string; caFile: string } {
  const pki = join(state.dir, 'pki');
  return {
    keyFile: join(pki, 'serving.key'),
    certFile: join(pki, 'serving.crt'),
    caFile: join(pki, 'ca.crt'),
  };
}

export function writeState(state: StackState): void {
  writeFileSync(join(state.dir, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
}

/** A process's start time in clock ticks after boot (field 22 of /proc/<pid>/stat); undefined once it is gone. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Whether the stack's process still runs: its pid exists and still belongs to the process the stack started.
 * Pids are reused within minutes on a busy machine (about 2,000 a minute here); `down` signalling the group of
 * a stale one would stop whatever process group now has that number.
 */
export function alive(proc: StackProcess): boolean {
  const started = startTime(proc.pid);
  return started !== undefined && (proc.started === undefined || started === proc.started);
}

/** The lines of `npm run argo -- env`. */
export function envLines(state: StackState): string[] {
  return [
    `KUBECONFIG=${join(state.dir, 'kubeconfig')}`,
    `KUBECTL=${join(state.bin.kube, 'kubectl')}`,
    `ARGO=${join(state.bin.argo, 'argo')}`,
    `ARGO_SERVER=${state.hostAddr}:${state.ports.argoServer}`,
    // Given ARGO_SERVER, the argo CLI takes no token from a kubeconfig naming another server ("could not find a
    // token" without this). Quoted as a shell reads it: the value has a space.
    `ARGO_TOKEN='Bearer ${state.adminToken}'`,
    `ARGO_SECURE=false`,
    `ARGO_HTTP1=true`,
    `ARGO_NAMESPACE=${ARGO_NAMESPACE}`,
    `HOST_ADDR=${state.hostAddr}`,
    // The stack's folder (the pods' log files under the pod runner); exported, later `npm run argo` commands of
    // the same shell find the same stack.
    `ARGO_STACK_DIR=${state.dir}`,
    ...(state.processes.some((p) => p.name.startsWith('shared-agent'))
      ? [
          `SHARED_AGENT_PIDS=${state.processes
            .filter((p) => p.name.startsWith('shared-agent'))
            .map((p) => p.pid)
            .join(',')}`,
        ]
      : []),
  ];
}

export function kubeClient(state: StackState): KubeClient {
  return new KubeClient({
    server: `https://${state.hostAddr}:${state.ports.apiServer}`,
    token: state.adminToken,
    ca: readFileSync(join(state.dir, 'pki/ca.crt'), 'utf8'),
  });
}

export async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Checks every 250 ms until `check` answers a value (an error counts as not yet); fails naming `what`. */
export async function until<T>(
  what: string,
  seconds: number,
  check: () => T | undefined | Promise<T | undefined>,
  died?: () => string | undefined,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  let last = '';
  for (;;) {
    const dead = died?.();
    if (dead) throw new Error(`${what}: ${dead}`);
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > deadline)
      throw new Error(`${what} not ready after ${seconds} s${last ? ` (${last})` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function startProcess(
  state: StackState,
  name: string,
  argv: string[],
  env: Record<string, string> = {},
): StackProcess {
  mkdirSync(join(state.dir, 'logs'), { recursive: true });
  const log = join(state.dir, 'logs', `${name}.log`);
  const fd = openSync(log, 'a');
  const child = spawn(argv[0], argv.slice(1), {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, ...env },
  });
  closeSync(fd);
  child.unref();
  const proc = { name, pid: child.pid!, log, started: startTime(child.pid!) };
  state.processes.push(proc);
  writeState(state);
  return proc;
}

export function exitedLine(proc: StackProcess): string | undefined {
  if (alive(proc)) return undefined;
  const tail = existsSync(proc.log)
    ? readFileSync(proc.log, 'utf8').trim().split('\n').slice(-3).join(' | ')
    : '';
  return `${proc.name} exited (${proc.log}): ${tail.slice(-600)}`;
}

function kubeconfig(state: StackState): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: argo-stack`,
    '  cluster:',
    `    server: https://${state.hostAddr}:${state.ports.apiServer}`,
    `    certificate-authority: ${join(state.dir, 'pki/ca.crt')}`,
    'users:',
    '- name: admin',
    '  user:',
    `    token: ${state.adminToken}`,
    'contexts:',
    '- name: argo-stack',
    '  context: {cluster: argo-stack, user: admin, namespace: argo}',
    'current-context: argo-stack',
    '',
  ].join('\n');
}

/** kubectl of the stack, as the admin. */
export function kubectl(state: StackState, args: string[], input?: string): string {
  try {
    return execFileSync(join(state.bin.kube, 'kubectl'), args, {
      input,
      encoding: 'utf8',
      env: { ...process.env, KUBECONFIG: join(state.dir, 'kubeconfig') },
      stdio: ['pipe', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? '').trim();
    throw new Error(`kubectl ${args.slice(0, 3).join(' ')}: ${stderr || (err as Error).message}`, {
      cause: err,
    });
  }
}

/**
 * kubectl of the stack, as the admin, without blocking the event loop (for callers that follow many workflows
 * or serve stand-ins while they install).
 */
export function kubectlAsync(state: StackState, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      join(state.bin.kube, 'kubectl'),
      args,
      { env: { ...process.env, KUBECONFIG: join(state.dir, 'kubeconfig') }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        err
          ? reject(new Error(`kubectl ${args.slice(0, 3).join(' ')}: ${stderr.trim() || err.message}`))
          : resolve(stdout),
    );
    child.stdin?.end(input ?? '');
  });
}

/** The folder of a module as the go.mod of one of tools/argo-stack/go pins it (downloaded by the build). */
export function moduleDir(repoRoot: string, set: 'argo' | 'kube', module: string): string {
  const out = execFileSync('go', ['list', '-m', '-json', module], {
    cwd: join(repoRoot, 'tools/argo-stack/go', set),
    encoding: 'utf8',
  });
  const dir = /"Dir": "([^"]+)"/.exec(out)?.[1];
  if (!dir) throw new Error(`go list -m ${module} gave no folder (run go mod download)`);
  return dir;
}

/** The pinned Argo module's folder in the Go module cache (its CRDs, its e2e manifests). */
export function argoModuleDir(repoRoot: string): string {
  return moduleDir(repoRoot, 'argo', 'github.com/argoproj/argo-workflows/v4');
}

/** The namespace a workflow runs in, prepared as Argo's quick-start prepares one (tools/argo-stack/manifests). */
export function prepareWorkflowNamespace(state: StackState, namespace: string): void {
  kubectl(state, ['apply', '-f', '-'], `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${namespace}\n`);
  kubectl(state, [
    'apply',
    '-n',
    namespace,
    '-f',
    join(state.repoRoot, 'tools/argo-stack/manifests/workflow-namespace.yaml'),
  ]);
}

function controllerConfigMap(state: StackState, extra: Record<string, string>): string {
  const data: Record<string, string> = {
    metricsConfig: `enabled: true\nport: ${state.ports.controllerMetrics}\nsecure: false\n`,
    ...extra,
  };
  const lines = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: workflow-controller-configmap',
    `  namespace: ${ARGO_NAMESPACE}`,
    'data:',
  ];
  for (const [key, value] of Object.entries(data)) lines.push(`  ${key}: ${JSON.stringify(value)}`);
  return `${lines.join('\n')}\n`;
}

export async function up(options: UpOptions): Promise<StackState> {
  const { log, dir } = options;
  const existing = readState(dir);
  if (existing?.processes.length && existing.processes.every((p) => alive(p))) {
    log(`the stack in ${dir} is already up`);
    if (existing.realNode) await pushCheckoutImages(existing, options.repoRoot, log);
    return existing;
  }
  if (existing) await down(dir, () => undefined);
  rmSync(join(dir, 'logs'), { recursive: true, force: true });
  const bin = await ensureBinaries(options.repoRoot, log);
  mkdirSync(dir, { recursive: true });
  const taken = new Set(
    existsSync(join(cacheRoot(), 'stacks'))
      ? readdirSync(join(cacheRoot(), 'stacks')).map((d) => readState(join(cacheRoot(), 'stacks', d))?.index)
      : [],
  );
  const index = freeStackIndex((i) => taken.has(i));
  createBridge(index);
  const hostAddr = hostAddress(index);
  const state: StackState = {
    dir,
    repoRoot: options.repoRoot,
    index,
    hostAddr,
    ports: {
      etcd: await freePort('127.0.0.1'),
      etcdPeer: await freePort('127.0.0.1'),
      apiServer: await freePort(hostAddr),
      // argo server listens on :<port>, every address: a port free on HOST_ADDR alone can be taken on another
      // (a start once failed with the server's "failed to listen").
      argoServer: await freePort('0.0.0.0'),
      controllerMetrics: await freePort('0.0.0.0'),
    },
    bin,
    adminToken: randomBytes(24).toString('hex'),
    processes: [],
    startedAt: new Date().toISOString(),
  };
  writeState(state);
  const started = Date.now();
  const real = options.node === 'real';
  try {
    const kubeBin = (name: (typeof BINARIES.kube)[number]) => join(bin.kube, name);
    const argoBin = (name: (typeof BINARIES.argo)[number]) => join(bin.argo, name);
    const pki = join(dir, 'pki');
    execFileSync(kubeBin('certs'), [
      '--dir',
      pki,
      '--ips',
      // 10.96.0.1: the `kubernetes` Service's address (the first of --service-cluster-ip-range), by which pods
      // on a real node reach the API server through kube-proxy.
      `${hostAddr},127.0.0.1,10.96.0.1`,
      // The API server's client certificate towards a real node's kubelet (kubectl logs, exec).
      ...(real ? ['--client', 'apiserver-kubelet-client=kube-apiserver-kubelet-client/system:masters'] : []),
    ]);
    writeFileSync(join(dir, 'tokens.csv'), `${state.adminToken},admin,admin,system:masters\n`);
    writeFileSync(join(dir, 'kubeconfig'), kubeconfig(state), { mode: 0o600 });

    const etcd = startProcess(state, 'etcd', [
      kubeBin('etcd'),
      '--data-dir',
      join(dir, 'etcd'),
      '--listen-client-url',
      `http://127.0.0.1:${state.ports.etcd}`,
      '--listen-peer-url',
      `http://127.0.0.1:${state.ports.etcdPeer}`,
    ]);
    await until(
      'etcd',
      60,
      async () => ((await fetch(`http://127.0.0.1:${state.ports.etcd}/health`)).ok ? true : undefined),
      () => exitedLine(etcd),
    );

    const apiServer = startProcess(state, 'kube-apiserver', [
      kubeBin('kube-apiserver'),
      `--etcd-servers=http://127.0.0.1:${state.ports.etcd}`,
      `--bind-address=${hostAddr}`,
      `--advertise-address=${hostAddr}`,
      `--secure-port=${state.ports.apiServer}`,
      `--tls-cert-file=${join(pki, 'serving.crt')}`,
      `--tls-private-key-file=${join(pki, 'serving.key')}`,
      `--client-ca-file=${join(pki, 'ca.crt')}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      // A real node's kubelet is authorized as nodes are (Node) and limited to its own objects (NodeRestriction).
      ...(real
        ? [
            '--authorization-mode=Node,RBAC',
            '--enable-admission-plugins=NodeRestriction',
            `--kubelet-client-certificate=${join(pki, 'apiserver-kubelet-client.crt')}`,
            `--kubelet-client-key=${join(pki, 'apiserver-kubelet-client.key')}`,
            `--kubelet-certificate-authority=${join(pki, 'ca.crt')}`,
            '--kubelet-preferred-address-types=InternalIP',
          ]
        : ['--authorization-mode=RBAC']),
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${join(pki, 'sa.pub')}`,
      `--service-account-signing-key-file=${join(pki, 'sa.key')}`,
      '--service-cluster-ip-range=10.96.0.0/16',
      `--cert-dir=${join(dir, 'apiserver-certs')}`,
      '--allow-privileged=true',
      '--profiling=false',
    ]);
    const client = kubeClient(state);
    await until(
      'kube-apiserver',
      120,
      async () => (await client.text('/readyz')) && true,
      () => exitedLine(apiServer),
    );

    startProcess(state, 'kube-controller-manager', [
      kubeBin('kube-controller-manager'),
      `--kubeconfig=${join(dir, 'kubeconfig')}`,
      `--controllers=${[
        'serviceaccount-token-controller',
        'serviceaccount-controller',
        'garbage-collector-controller',
        'namespace-controller',
        'root-ca-certificate-publisher-controller',
        // A real node: its not-ready taint is lifted once it is Ready, Services get their endpoints, and
        // Deployments (CoreDNS, the shared agent's) their ReplicaSets and pods.
        ...(real
          ? [
              'node-lifecycle-controller',
              'endpointslice-controller',
              'deployment-controller',
              'replicaset-controller',
            ]
          : []),
      ].join(',')}`,
      `--service-account-private-key-file=${join(pki, 'sa.key')}`,
      `--root-ca-file=${join(pki, 'ca.crt')}`,
      '--use-service-account-credentials=false',
      '--leader-elect=false',
      '--secure-port=0',
    ]);

    const argoModule = argoModuleDir(options.repoRoot);
    const crds = join(argoModule, 'manifests/base/crds/full');
    const crdFiles = readdirSync(crds).filter((f) => /^argoproj\.io_.*\.yaml$/.test(f));
    kubectl(state, ['apply', '--server-side', ...crdFiles.flatMap((f) => ['-f', join(crds, f)])]);
    kubectl(state, ['wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all']);
    kubectl(
      state,
      ['apply', '-f', '-'],
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ARGO_NAMESPACE}\n`,
    );
    kubectl(state, ['apply', '-f', '-'], controllerConfigMap(state, options.controllerConfig ?? {}));
    prepareWorkflowNamespace(state, ARGO_NAMESPACE);

    const kubeconfigPath = join(dir, 'kubeconfig');
    const controller = startProcess(
      state,
      'workflow-controller',
      [
        argoBin('workflow-controller'),
        `--kubeconfig=${kubeconfigPath}`,
        `--namespace=${ARGO_NAMESPACE}`,
        `--executor-image=${EXECUTOR_IMAGE}`,
        '--loglevel=info',
        ...(options.controllerFlags ?? []),
      ],
      {
        ARGO_EXECUTOR_PLUGINS: 'true',
        ARGO_WORKFLOW_LEVEL_EXECUTOR_PLUGINS: 'true',
        LEADER_ELECTION_DISABLE: 'true',
        DEFAULT_REQUEUE_TIME: options.patchRate,
      },
    );
    // KUBECONFIG as well as --kubeconfig: in client auth mode the server builds each caller's client from the
    // default loading rules (in cluster: the pod's; here: KUBECONFIG), never from --kubeconfig, and answers
    // every token with 401 "no configuration has been provided" without it.
    const server = startProcess(
      state,
      'argo-server',
      [
        argoBin('argo'),
        'server',
        `--kubeconfig=${kubeconfigPath}`,
        `--namespace=${ARGO_NAMESPACE}`,
        '--auth-mode=client',
        '--auth-mode=server',
        '--secure=false',
        `--port=${state.ports.argoServer}`,
        '--loglevel=info',
      ],
      { KUBECONFIG: kubeconfigPath },
    );
    if (real) await startRealNode(state, log);
    const runner = real ? undefined : startProcess(state, 'pod-runner', options.podRunner);
    await until(
      'workflow-controller',
      60,
      async () =>
        (await fetch(`http://127.0.0.1:${state.ports.controllerMetrics}/metrics`)).ok ? true : undefined,
      () => exitedLine(controller),
    );
    await until(
      'argo server',
      60,
      async () =>
        (await fetch(`http://${hostAddr}:${state.ports.argoServer}/api/v1/version`)).ok ? true : undefined,
      () => exitedLine(server),
    );
    if (runner)
      await until(
        'pod runner',
        30,
        async () => (existsSync(join(dir, 'pod-runner.ready')) ? true : undefined),
        () => exitedLine(runner),
      );
    for (const extra of options.extra ?? []) startProcess(state, extra.name, extra.argv, extra.env);
    log(
      `argo stack up in ${((Date.now() - started) / 1000).toFixed(1)} s (${dir}, bridge ${bridgeName(index)})`,
    );
    return state;
  } catch (err) {
    await down(dir, () => undefined, { keepFiles: true });
    throw new Error(`${(err as Error).message}; logs: ${join(dir, 'logs')}`, { cause: err });
  }
}

/** Stops every process the stack started (the pod runner stops its pods first), then removes its network. */
export async function down(
  dir: string,
  log: (line: string) => void,
  { keepFiles = false } = {},
): Promise<boolean> {
  const state = readState(dir);
  if (!state) {
    log(`no stack in ${dir}`);
    return false;
  }
  await drainRealNode(state);
  for (const proc of [...state.processes].reverse()) {
    if (!alive(proc)) continue;
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch {
      // its group is gone already
    }
    const deadline = Date.now() + 15_000;
    while (alive(proc) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(proc)) {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  cleanUpRealNode(state);
  for (const slot of leftoverPodSlots(state.index)) deletePodNetwork(state.index, slot);
  deleteBridge(state.index);
  if (keepFiles) writeState({ ...state, processes: [] });
  else rmSync(dir, { recursive: true, force: true });
  log(`argo stack in ${dir} stopped`);
  return true;
}

export function status(dir: string): string[] {
  const state = readState(dir);
  if (!state) return [`no stack in ${dir}`];
  return [
    `stack ${dir} (bridge ${bridgeName(state.index)}, HOST_ADDR ${state.hostAddr}, up since ${state.startedAt})`,
    ...state.processes.map(
      (p) => `${alive(p) ? 'running' : 'stopped'}  ${p.name.padEnd(24)} pid ${p.pid}  ${p.log}`,
    ),
  ];
}
