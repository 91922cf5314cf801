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

export const repoRoot = resolve(import.meta.dirname, '../../..');

export function stack(): StackState {
  const state = readState(process.env.ARGO_STACK_DIR ?? '');
  if (!state)
    throw new Error(`no Argo stack in ${process.env.ARGO_STACK_DIR}: run through npm run test:argo`);
  return state;
}

export { kubectl, kubeClient, prepareWorkflowNamespace };

interface EnvRef {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

/** The sidecar container of manifests/<app>/plugin.yaml. */
export function pluginContainer(app: string): { name: string; env?: EnvRef[] } {
  const plugin = parse(readFileSync(join(repoRoot, 'manifests', app, 'plugin.yaml'), 'utf8')) as {
    spec: { sidecar: { container: { name: string; env?: EnvRef[] } } };
  };
  return plugin.spec.sidecar.container;
}

/**
 * The Secrets the plugin's secretKeyRefs name, filled from `env` (the variables the demo gives the sidecar):
 * each referenced key gets the value of the variable that references it.
 */
export function secretsFor(app: string, env: Record<string, string>): Array<Record<string, unknown>> {
  const data = new Map<string, Record<string, string>>();
  for (const variable of pluginContainer(app).env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    if (!ref || env[variable.name] === undefined) continue;
    const secret = data.get(ref.name) ?? {};
    secret[ref.key] = env[variable.name];
    data.set(ref.name, secret);
  }
  return [...data].map(([name, stringData]) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name },
    type: 'Opaque',
    stringData,
  }));
}

/** `kubectl apply -k manifests/<app>` into the namespace, with its Secret(s) made from `env`. */
export function installPlugin(
  state: StackState,
  namespace: string,
  app: string,
  env: Record<string, string>,
): void {
  const secrets = secretsFor(app, env);
  if (secrets.length > 0)
    kubectl(state, ['apply', '-n', namespace, '-f', '-'], secrets.map((s) => stringify(s)).join('---\n'));
  kubectl(state, ['apply', '-n', namespace, '-k', join(repoRoot, 'manifests', app)]);
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
