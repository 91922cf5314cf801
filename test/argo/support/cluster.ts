// What the real-Argo suites do with the stack: install a plugin from manifests/<app> with a Secret pointing at
// the stand-ins, submit workflows, wait for them to end.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import {
  kubeClient,
  kubectl,
  prepareWorkflowNamespace,
  readState,
  type StackState,
} from '../../../tools/argo-stack/src/stack.js';
import { restartSharedAgents } from '../../../tools/argo-stack/src/shared-agents.js';

export const repoRoot = resolve(import.meta.dirname, '../../..');

/** The suite's stack with Argo's own agent pods. */
export function stack(): StackState {
  const state = readState(process.env.ARGO_STACK_DIR ?? '');
  if (!state)
    throw new Error(`no Argo stack in ${process.env.ARGO_STACK_DIR}: run through npm run test:argo`);
  return state;
}

/** The suite's second stack: disableAgentPodCreation and the shared agent (up --agent shared). */
export function sharedStack(): StackState {
  const state = readState(process.env.ARGO_SHARED_STACK_DIR ?? '');
  if (!state?.sharedAgent)
    throw new Error(
      `no Argo stack with the shared agent in ${process.env.ARGO_SHARED_STACK_DIR}: run through npm run test:argo`,
    );
  return state;
}

/** The env of manifests/shared-agent's Deployment container, as kustomize renders it. */
export function sharedAgentEnv(state: StackState): EnvRef[] {
  const docs = parseAllDocuments(kubectl(state, ['kustomize', join(repoRoot, 'manifests/shared-agent')])).map(
    (d) =>
      d.toJS() as {
        kind: string;
        spec?: { template?: { spec?: { containers?: Array<{ env?: EnvRef[] }> } } };
      },
  );
  return docs.find((d) => d.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0]?.env ?? [];
}

/**
 * The plugins' settings where the shared agent's Deployment reads them (Secrets and ConfigMaps of namespace
 * argo), filled from `env`, and the rest of `env` in plain; then the replicas restart to read them, as a
 * rollout would.
 */
export async function configureSharedAgent(
  state: StackState,
  env: Record<string, string>,
  agentEnv: Record<string, string> = {},
): Promise<void> {
  const variables = sharedAgentEnv(state);
  const settings = settingsFor(variables, env);
  if (settings.length > 0)
    kubectl(state, ['apply', '-n', 'argo', '-f', '-'], settings.map((s) => stringify(s)).join('---\n'));
  // As installPluginWithStandIns: what the Deployment cannot take from a Secret is set in plain.
  await restartSharedAgents(state, () => undefined, { ...plainVariables(variables, env), ...agentEnv });
}

/** Agent pods of the stack (Argo labels them component=agent). */
export function agentPods(state: StackState): string[] {
  const out = kubectl(state, [
    'get',
    'pods',
    '--all-namespaces',
    '-l',
    'workflows.argoproj.io/component=agent',
    '-o',
    'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{"\\n"}{end}',
  ]);
  return out.split('\n').filter(Boolean);
}

export { kubectl, kubeClient, prepareWorkflowNamespace };

interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}

interface EnvRef {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef };
}

/** The sidecar container of manifests/<app>/plugin.yaml. */
export function pluginContainer(app: string): { name: string; env?: EnvRef[] } {
  const plugin = parse(readFileSync(join(repoRoot, 'manifests', app, 'plugin.yaml'), 'utf8')) as {
    spec: { sidecar: { container: { name: string; env?: EnvRef[] } } };
  };
  return plugin.spec.sidecar.container;
}

/**
 * The Secrets and ConfigMaps a container's env refers to, filled from `env` (the variables the demo gives the
 * plugin): each referenced key gets the value of the variable that references it.
 */
export function settingsFor(
  variables: EnvRef[],
  env: Record<string, string>,
): Array<Record<string, unknown>> {
  const data = new Map<
    string,
    { kind: 'Secret' | 'ConfigMap'; name: string; values: Record<string, string> }
  >();
  for (const variable of variables) {
    const from = variable.valueFrom;
    const ref = from?.secretKeyRef ?? from?.configMapKeyRef;
    if (!ref || env[variable.name] === undefined) continue;
    const kind = from?.secretKeyRef ? 'Secret' : 'ConfigMap';
    const entry = data.get(`${kind}/${ref.name}`) ?? { kind, name: ref.name, values: {} };
    entry.values[ref.key] = env[variable.name];
    data.set(`${kind}/${ref.name}`, entry);
  }
  return [...data.values()].map(({ kind, name, values }) =>
    kind === 'Secret'
      ? { apiVersion: 'v1', kind, metadata: { name }, type: 'Opaque', stringData: values }
      : { apiVersion: 'v1', kind, metadata: { name }, data: values },
  );
}

/** The settings objects of manifests/<app>'s plugin, filled from `env`. */
export function secretsFor(app: string, env: Record<string, string>): Array<Record<string, unknown>> {
  return settingsFor(pluginContainer(app).env ?? [], env);
}

/** `kubectl apply -k manifests/<app>` into the namespace, with its Secret(s) made from `env`. */
export function installPlugin(
  state: StackState,
  namespace: string,
  app: string,
  env: Record<string, string>,
): void {
  const settings = secretsFor(app, env);
  if (settings.length > 0)
    kubectl(state, ['apply', '-n', namespace, '-f', '-'], settings.map((s) => stringify(s)).join('---\n'));
  kubectl(state, ['apply', '-n', namespace, '-k', join(repoRoot, 'manifests', app)]);
}

/**
 * The variables of `env` the container's env does not take from a Secret or ConfigMap: the stand-ins'
 * addresses of SaaS APIs (SLACK_API_URL...) and the values the manifest writes in plain (ARGO_SERVER), which a
 * test must set in plain too.
 */
export function plainVariables(variables: EnvRef[], env: Record<string, string>): Record<string, string> {
  const referenced = new Set(
    variables.filter((v) => v.valueFrom?.secretKeyRef || v.valueFrom?.configMapKeyRef).map((v) => v.name),
  );
  return Object.fromEntries(Object.entries(env).filter(([name]) => !referenced.has(name)));
}

/**
 * installPlugin, with the plain variables of `env` (plainVariables) written into the plugin's ConfigMap as
 * well, so the sidecar reaches every stand-in.
 */
export function installPluginWithStandIns(
  state: StackState,
  namespace: string,
  app: string,
  env: Record<string, string>,
): void {
  installPlugin(state, namespace, app, env);
  const dir = join(repoRoot, 'manifests', app);
  const file = readdirSync(dir).find((f) => f.endsWith('-executor-plugin-configmap.yaml'))!;
  const configMap = parse(readFileSync(join(dir, file), 'utf8')) as { data: Record<string, string> };
  const container = parse(configMap.data['sidecar.container']!) as { env?: EnvRef[] };
  const plain = plainVariables(container.env ?? [], env);
  container.env = [
    ...(container.env ?? []).filter((v) => !(v.name in plain)),
    ...Object.entries(plain).map(([name, value]) => ({ name, value })),
  ];
  configMap.data['sidecar.container'] = stringify(container);
  kubectl(state, ['apply', '-n', namespace, '-f', '-'], JSON.stringify(configMap));
}

export function uninstallPlugin(state: StackState, namespace: string, app: string): void {
  kubectl(state, ['delete', '-n', namespace, '--ignore-not-found', '-k', join(repoRoot, 'manifests', app)]);
}

export interface ManifestDoc {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; generateName?: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

/** Every document of every example of an app, with the file it came from. */
export function examples(app: string): Array<{ file: string; doc: ManifestDoc }> {
  const dir = join(repoRoot, 'manifests', app, 'examples');
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(dir, f), 'utf8'))
        .map((d) => d.toJS() as ManifestDoc)
        .filter(Boolean)
        .map((doc) => ({ file: `manifests/${app}/examples/${f}`, doc })),
    );
}

/** Creates the object; answers its name (generateName resolved). */
export function create(state: StackState, namespace: string, doc: ManifestDoc): string {
  return kubectl(
    state,
    ['create', '-n', namespace, '-o', 'jsonpath={.metadata.name}', '-f', '-'],
    JSON.stringify(doc),
  ).trim();
}

export interface WorkflowOutcome {
  name: string;
  phase: string;
  message?: string;
  nodes: Record<
    string,
    { displayName: string; type: string; phase: string; message?: string; outputs?: unknown }
  >;
}

const FINAL = new Set(['Succeeded', 'Failed', 'Error']);

/** Polls the workflow until it ends or `timeoutMs` passes (then answers its last state). */
export async function waitForWorkflow(
  state: StackState,
  namespace: string,
  name: string,
  timeoutMs: number,
): Promise<WorkflowOutcome> {
  const client = kubeClient(state);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wf = await client.get<{
      status?: { phase?: string; message?: string; nodes?: WorkflowOutcome['nodes'] };
    }>(`/apis/argoproj.io/v1alpha1/namespaces/${namespace}/workflows/${name}`);
    const outcome = {
      name,
      phase: wf.status?.phase ?? 'Pending',
      message: wf.status?.message,
      nodes: wf.status?.nodes ?? {},
    };
    if (FINAL.has(outcome.phase) || Date.now() > deadline) return outcome;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
