// The shared agent in the stack (`npm run argo -- up --agent shared [--replicas N]`): N replicas of the built
// dist/apps/shared-agent as processes of the stack, each configured as a pod of manifests/shared-agent's
// Deployment would be: its env resolved from the Deployment (the plugins' Secrets and ConfigMaps of Argo's
// namespace, the AGENT_ settings, fieldRefs), and its own kubeconfig holding a TokenRequest token of the
// Deployment's ServiceAccount, so the API grants it exactly what manifests/shared-agent's RBAC grants.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { EnvValidationError, enabledPlugins, loadEnv, scopedSource } from '@app/plugin-kit';
import type { KubeClient } from '@app/argo-agent/kube/kube-client.js';
import { collection } from '../../../apps/collection/src/collection.definition.js';
import { containerEnv, Missing } from './container-env.js';
import type { Container } from './pod-types.js';
import {
  alive,
  exitedLine,
  freePort,
  kubeClient,
  kubectl,
  startProcess,
  until,
  writeState,
  type StackProcess,
  type StackState,
} from './stack.js';

export const SHARED_AGENT = 'shared-agent';

export interface SharedAgentsOptions {
  replicas: number;
  /** ARGO_AGENT_PATCH_RATE, the same as the controller's requeue time. */
  patchRate: string;
  log: (line: string) => void;
  /** Variables set over the Deployment's (e.g. AGENT_EXTERNAL_PLUGINS for a plugin server by URL). */
  env?: Record<string, string>;
}

interface Manifest {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: { template?: { spec?: { serviceAccountName?: string; containers?: Container[] } } };
}

/** The shared-agent processes of a stack. */
export function sharedAgentProcesses(state: StackState): StackProcess[] {
  return state.processes.filter((p) => p.name.startsWith(SHARED_AGENT));
}

/** How one replica differs from the Deployment's pods. */
export interface ReplicaOptions {
  /** Variables set over the Deployment's and the stack's (e.g. AGENT_IDENTITY for a twin). */
  env?: Record<string, string>;
  /** The API server's URL in the replica's kubeconfig (e.g. a proxy in front of the stack's). */
  apiServer?: string;
}

/** Starts one replica under a name (its pod's name); answers it and its health port. */
type Launch = (name: string, replica?: ReplicaOptions) => Promise<{ proc: StackProcess; port: number }>;

/** manifests/shared-agent as kustomize renders it, its Deployment's pod and container. */
export interface Rendered {
  docs: Manifest[];
  namespace: string;
  account: string;
  container: Container;
}

export function rendered(state: StackState): Rendered {
  const docs = parseAllDocuments(
    kubectl(state, ['kustomize', join(state.repoRoot, 'manifests', SHARED_AGENT)]),
  )
    .map((d) => d.toJS() as Manifest)
    .filter(Boolean);
  const deployment = docs.find((d) => d.kind === 'Deployment');
  const pod = deployment?.spec?.template?.spec;
  const container = pod?.containers?.[0];
  if (!deployment || !pod || !container)
    throw new Error(`manifests/${SHARED_AGENT}: no Deployment with a container`);
  return {
    docs,
    namespace: deployment.metadata.namespace ?? 'default',
    account: pod.serviceAccountName ?? 'default',
    container,
  };
}

/** The Deployment's container env for a pod named `name`, resolved from the Secrets and ConfigMaps it names. */
export function resolvedEnv(
  client: KubeClient,
  { container, namespace }: Rendered,
  name: string,
  base: Record<string, string>,
): Promise<Record<string, string>> {
  const data = async (kind: 'secrets' | 'configmaps', objectName: string, optional?: boolean) => {
    const object = await client.find<{ data?: Record<string, string> }>(
      `/api/v1/namespaces/${namespace}/${kind}/${objectName}`,
    );
    if (!object) {
      if (optional) return {};
      throw new Missing(`${kind === 'secrets' ? 'secret' : 'configmap'} "${objectName}" not found`);
    }
    return Object.fromEntries(
      Object.entries(object.data ?? {}).map(([k, v]) => [
        k,
        kind === 'secrets' ? Buffer.from(v, 'base64').toString('utf8') : v,
      ]),
    );
  };
  return containerEnv(container, base, {
    data,
    field: (path) => ({ 'metadata.name': name, 'metadata.namespace': namespace })[path] ?? '',
    namespace,
  });
}

/** `kubectl apply` of rendered manifests (what `kubectl apply -k` would apply, rendered once). */
export function applyRendered(state: StackState, docs: Manifest[]): void {
  kubectl(state, ['apply', '-f', '-'], docs.map((d) => stringify(d)).join('---\n'));
}

/**
 * Installs what manifests/shared-agent installs except the Deployment (its ServiceAccount, RBAC, PDB, Service),
 * and answers how to start a replica configured as the Deployment's pod would be.
 */
async function replicaLauncher(state: StackState, options: SharedAgentsOptions): Promise<Launch> {
  const manifests = rendered(state);
  const { docs, namespace, account } = manifests;
  applyRendered(
    state,
    docs.filter((d) => d.kind !== 'Deployment'),
  );
  const client = kubeClient(state);

  const dir = join(state.dir, SHARED_AGENT);
  mkdirSync(dir, { recursive: true });
  const token = await client.call<{ status: { token: string } }>(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${account}/token`,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 86_400 } },
  );
  writeFileSync(join(dir, 'token'), token.status.token, { mode: 0o600 });
  writeFileSync(join(dir, 'kubeconfig'), kubeconfig(state, join(dir, 'token'), namespace), { mode: 0o600 });

  let logged = false;
  return async (name, replica = {}) => {
    const env = await resolvedEnv(client, manifests, name, {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      HOSTNAME: name,
    });
    const plugins = usablePlugins(env);
    if (!logged) options.log(`shared agents: PLUGINS=${plugins.keys}${leftOutText(plugins)}`);
    logged = true;
    const port = await freePort('127.0.0.1');
    const tokenDir = join(dir, name, 'argo');
    mkdirSync(tokenDir, { recursive: true });
    let kubeconfigFile = join(dir, 'kubeconfig');
    if (replica.apiServer) {
      kubeconfigFile = join(dir, name, 'kubeconfig');
      writeFileSync(kubeconfigFile, kubeconfig(state, join(dir, 'token'), namespace, replica.apiServer), {
        mode: 0o600,
      });
    }
    const proc = startProcess(
      state,
      name,
      [process.execPath, join(state.repoRoot, 'dist/apps', SHARED_AGENT, 'main.js')],
      {
        ...env,
        PLUGINS: plugins.keys,
        KUBECONFIG: kubeconfigFile,
        AGENT_PORT: String(port),
        AGENT_HOST: '127.0.0.1',
        ARGO_AGENT_PATCH_RATE: options.patchRate,
        AGENT_PLUGIN_TOKEN_DIR: tokenDir,
        ...options.env,
        ...replica.env,
      },
    );
    return { proc, port };
  };
}

async function ready({ proc, port }: { proc: StackProcess; port: number }): Promise<void> {
  await until(
    proc.name,
    60,
    async () => ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok ? true : undefined),
    () => exitedLine(proc),
  );
}

function remember(state: StackState, options: SharedAgentsOptions, ports: number[]): void {
  state.sharedAgent = { replicas: options.replicas, patchRate: options.patchRate, ports };
  writeState(state);
}

/**
 * Installs what manifests/shared-agent installs except the Deployment, and starts the replicas; answers once
 * each is ready (/readyz), or fails naming the replica and its log.
 */
export async function startSharedAgents(
  state: StackState,
  options: SharedAgentsOptions,
): Promise<StackProcess[]> {
  const launch = await replicaLauncher(state, options);
  const started: Array<{ proc: StackProcess; port: number }> = [];
  for (let i = 0; i < options.replicas; i++) started.push(await launch(`${SHARED_AGENT}-${i}`));
  for (const replica of started) await ready(replica);
  remember(
    state,
    options,
    started.map((s) => s.port),
  );
  return started.map((s) => s.proc);
}

/**
 * A rollout of the Deployment, as `kubectl rollout restart` makes one under its RollingUpdate strategy
 * (maxSurge 1, maxUnavailable 0): for each old replica, a new one (a new pod name) starts and is ready, then the
 * old one gets SIGTERM; answers the new replicas once the old ones have exited (those left after 40 s get
 * SIGKILL, as a pod does after its terminationGracePeriodSeconds).
 */
export async function rolloutSharedAgents(
  state: StackState,
  log: (line: string) => void,
  env?: Record<string, string>,
): Promise<StackProcess[]> {
  const options = runningOptions(state, log, env);
  const old = sharedAgentProcesses(state);
  const launch = await replicaLauncher(state, options);
  const revision = Date.now().toString(36);
  const started: Array<{ proc: StackProcess; port: number }> = [];
  for (const [i, replaced] of old.entries()) {
    const replica = await launch(`${SHARED_AGENT}-${revision}-${i}`);
    await ready(replica);
    started.push(replica);
    terminate(replaced, 'SIGTERM');
  }
  await ended(old);
  state.processes = state.processes.filter((p) => !old.includes(p));
  remember(
    state,
    options,
    started.map((s) => s.port),
  );
  return started.map((s) => s.proc);
}

/** The options the stack's replicas run with, for new ones. */
function runningOptions(
  state: StackState,
  log: (line: string) => void,
  env?: Record<string, string>,
): SharedAgentsOptions {
  const settings = state.sharedAgent;
  if (!settings)
    throw new Error(`the stack in ${state.dir} runs no shared agent (npm run argo -- up --agent shared)`);
  if (settings.pods)
    throw new Error(
      `the stack in ${state.dir} runs the shared agent as the pods of deployment/${SHARED_AGENT}: kubectl -n argo set env or rollout restart it`,
    );
  return { replicas: settings.replicas, patchRate: settings.patchRate, log, env };
}

function terminate(proc: StackProcess, signal: NodeJS.Signals): void {
  // Only a process that is still the one the stack started: a stale pid may be another process's now.
  if (!alive(proc)) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // gone already
  }
}

/** Waits up to 40 s for the processes to exit (a pod's grace period is 30 s), then kills those left. */
async function ended(procs: StackProcess[]): Promise<void> {
  const deadline = Date.now() + 40_000;
  while (procs.some((p) => alive(p)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const proc of procs) terminate(proc, 'SIGKILL');
}

/** Stops the replicas gracefully (SIGTERM: they finish their tasks, write them and release their Leases). */
export async function stopSharedAgents(state: StackState): Promise<void> {
  await stopSharedAgentReplicas(state, sharedAgentProcesses(state));
}

/** Stops some of the replicas (SIGTERM, or `signal`), as the pods' deletion would, and forgets them. */
export async function stopSharedAgentReplicas(
  state: StackState,
  procs: StackProcess[],
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  for (const proc of procs) terminate(proc, signal);
  await ended(procs);
  state.processes = state.processes.filter((p) => !procs.includes(p));
  writeState(state);
}

const extraLaunchers = new WeakMap<StackState, Promise<Launch>>();

/**
 * Starts one more replica beside the stack's, configured as the Deployment's pod named `name` would be and
 * differing as `replica` says (a second pod with the same AGENT_IDENTITY, a pod of another Deployment, a
 * replica whose API connection goes through a proxy); answers once its health port answers, ready or not.
 */
export async function startSharedAgentReplica(
  state: StackState,
  name: string,
  replica: ReplicaOptions,
  log: (line: string) => void = () => undefined,
): Promise<{ proc: StackProcess; port: number }> {
  // One launcher per stack: each applies the manifests and asks for a token, seconds on a busy machine.
  let launcher = extraLaunchers.get(state);
  if (!launcher) {
    launcher = replicaLauncher(state, runningOptions(state, log));
    extraLaunchers.set(state, launcher);
    launcher.catch(() => extraLaunchers.delete(state));
  }
  const started = await (await launcher)(name, replica);
  await until(
    name,
    60,
    async () => ((await fetch(`http://127.0.0.1:${started.port}/healthz`)).ok ? true : undefined),
    () => exitedLine(started.proc),
  );
  return started;
}

/** Stops and starts the replicas again, e.g. once the plugins' Secrets are in place (as a rollout would). */
export async function restartSharedAgents(
  state: StackState,
  log: (line: string) => void,
  env?: Record<string, string>,
): Promise<StackProcess[]> {
  const options = runningOptions(state, log, env);
  await stopSharedAgents(state);
  return startSharedAgents(state, options);
}

export interface UsablePlugins {
  /** PLUGINS for the replicas: the usable plugins' keys, or `none`. */
  keys: string;
  leftOut: Array<{ key: string; problem: string }>;
}

/**
 * The plugins of PLUGINS whose settings are complete in `env`: a plugin whose Secret is not there yet is left
 * out (`none` if none is left), where the Deployment's pod would stop at start naming what it misses.
 */
export function usablePlugins(env: Record<string, string>): UsablePlugins {
  const enabled = enabledPlugins(collection, env.PLUGINS);
  const usable: string[] = [];
  const leftOut: UsablePlugins['leftOut'] = [];
  for (const plugin of enabled) {
    try {
      if (plugin.env) loadEnv(plugin.env, scopedSource(plugin, enabled, env));
      usable.push(plugin.key);
    } catch (err) {
      if (!(err instanceof EnvValidationError)) throw err;
      leftOut.push({ key: plugin.key, problem: err.problems[0]! });
    }
  }
  return { keys: usable.join(',') || 'none', leftOut };
}

function kubeconfig(
  state: StackState,
  tokenFile: string,
  namespace: string,
  server = `https://${state.hostAddr}:${state.ports.apiServer}`,
): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'argo-stack',
        cluster: {
          server,
          'certificate-authority': join(state.dir, 'pki/ca.crt'),
        },
      },
    ],
    users: [{ name: SHARED_AGENT, user: { tokenFile } }],
    contexts: [{ name: SHARED_AGENT, context: { cluster: 'argo-stack', user: SHARED_AGENT, namespace } }],
    'current-context': SHARED_AGENT,
  });
}

/**
 * Why plugins are left out: each one's reason when some are hosted (a setting is missing), only their keys when
 * none is (the stack starts before any plugin has settings: every reason would be "not configured").
 */
export function leftOutText({ keys, leftOut }: UsablePlugins): string {
  if (leftOut.length === 0) return '';
  if (keys !== 'none') return ` (left out: ${leftOut.map((p) => `${p.key}: ${p.problem}`).join('; ')})`;
  return ` (none has its settings yet: ${leftOut.map((p) => p.key).join(', ')})`;
}
