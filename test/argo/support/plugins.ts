// Installing our plugins the way docs/install.md tells an administrator, with the settings pointing at the
// stand-ins: the Secrets of the sidecar's secretKeyRefs and the ConfigMaps of its configMapKeyRefs filled from
// the demo env, the agent RBAC, and either the plugin ConfigMap (installed plugins) or the workflow-level
// snippet (spec.executorPlugins). A variable of the demo env the sidecar does not take from a Secret or a
// ConfigMap (a stand-in's endpoint such as SLACK_API_URL, ARGO_SERVER, SMTP_CA_PEM) is what an
// administrator sets as a value in plugin.yaml: it is set so in the sidecar's env.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import type { StackState } from '../../../tools/argo-stack/src/stack.js';
import { kubectlAsync, repoRoot, type ManifestDoc } from './cluster.js';

interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef };
}

export interface SidecarContainer {
  name: string;
  env?: EnvVar[];
  [field: string]: unknown;
}

interface ExecutorPlugin {
  metadata: { name: string };
  spec: { sidecar: { container: SidecarContainer; automountServiceAccountToken?: boolean } };
}

/** Every app with a plugin manifest (manifests/<app>/plugin.yaml), the collection apart. */
export function pluginApps(): string[] {
  return readdirSync(join(repoRoot, 'manifests'))
    .filter((d) => d !== 'collection' && existsSync(join(repoRoot, 'manifests', d, 'plugin.yaml')))
    .sort();
}

export function pluginManifest(app: string): ExecutorPlugin {
  return parse(readFileSync(join(repoRoot, 'manifests', app, 'plugin.yaml'), 'utf8')) as ExecutorPlugin;
}

/** The Secrets and ConfigMaps a sidecar's key references name, each key filled from the variable naming it. */
export function settingsObjects(container: SidecarContainer, env: Record<string, string>): ManifestDoc[] {
  const objects = new Map<string, { kind: 'Secret' | 'ConfigMap'; data: Record<string, string> }>();
  for (const variable of container.env ?? []) {
    const secret = variable.valueFrom?.secretKeyRef;
    const ref = secret ?? variable.valueFrom?.configMapKeyRef;
    if (!ref || env[variable.name] === undefined) continue;
    const kind = secret ? 'Secret' : 'ConfigMap';
    const object = objects.get(`${kind}/${ref.name}`) ?? { kind, data: {} };
    object.data[ref.key] = env[variable.name];
    objects.set(`${kind}/${ref.name}`, object);
  }
  return [...objects].map(([id, { kind, data }]) => ({
    apiVersion: 'v1',
    kind,
    metadata: { name: id.slice(kind.length + 1) },
    ...(kind === 'Secret' ? { type: 'Opaque', stringData: data } : { data }),
  }));
}

/** The variables of `env` the sidecar does not take from a Secret or ConfigMap: set as values. */
export function plainSettings(
  container: SidecarContainer,
  env: Record<string, string>,
): Record<string, string> {
  const fromObjects = new Set(
    (container.env ?? []).filter((v) => v.valueFrom !== undefined).map((v) => v.name),
  );
  return Object.fromEntries(Object.entries(env).filter(([name]) => !fromObjects.has(name)));
}

/** The sidecar with every variable of `env` it does not take from a Secret or ConfigMap set as a value. */
export function withSettings(container: SidecarContainer, env: Record<string, string>): SidecarContainer {
  const values = Object.entries(plainSettings(container, env));
  const set = new Map(values);
  const kept = (container.env ?? []).map((v) =>
    set.has(v.name) ? { name: v.name, value: set.get(v.name)! } : v,
  );
  const added = values
    .filter(([name]) => !kept.some((v) => v.name === name))
    .map(([name, value]) => ({ name, value }));
  return { ...container, env: [...kept, ...added] };
}

export async function apply(state: StackState, namespace: string, docs: ManifestDoc[]): Promise<void> {
  if (docs.length === 0) return;
  await kubectlAsync(
    state,
    ['apply', '-n', namespace, '-f', '-'],
    docs.map((d) => stringify(d)).join('---\n'),
  );
}

/** The documents of `kubectl kustomize manifests/<app>` (the plugin ConfigMap and the agent RBAC). */
export async function kustomization(state: StackState, app: string): Promise<ManifestDoc[]> {
  return parseAllDocuments(await kubectlAsync(state, ['kustomize', join(repoRoot, 'manifests', app)])).map(
    (d) => d.toJS() as ManifestDoc,
  );
}

const isPluginConfigMap = (doc: ManifestDoc & { data?: Record<string, string> }) =>
  doc.kind === 'ConfigMap' &&
  (doc.metadata as { labels?: Record<string, string> }).labels?.['workflows.argoproj.io/configmap-type'] ===
    'ExecutorPlugin';

/**
 * `kubectl apply -k manifests/<app>` into the namespace, its sidecar set up with `env`, after the Secrets and
 * ConfigMaps it reads. `app` may be the collection. For workflows that declare the plugin themselves
 * (`workflowLevel`), everything but the plugin's ConfigMap: the settings and the agent RBAC.
 */
export async function installPlugin(
  state: StackState,
  namespace: string,
  app: string,
  env: Record<string, string>,
  { workflowLevel = false } = {},
): Promise<void> {
  await apply(state, namespace, settingsObjects(pluginManifest(app).spec.sidecar.container, env));
  const docs = (await kustomization(state, app)).flatMap(
    (doc: ManifestDoc & { data?: Record<string, string> }) => {
      if (!isPluginConfigMap(doc)) return [doc];
      if (workflowLevel) return [];
      const container = parse(doc.data!['sidecar.container']) as SidecarContainer;
      return [
        { ...doc, data: { ...doc.data, 'sidecar.container': stringify(withSettings(container, env)) } },
      ];
    },
  );
  await apply(state, namespace, docs);
}

/** manifests/<app>/workflow-level-example.yaml: its workflow, and the plugins it declares set up with `env`. */
export function workflowLevelExample(
  app: string,
  env: Record<string, string>,
): { what: string; doc: ManifestDoc; plugins: ExecutorPlugin[] } {
  const what = `manifests/${app}/workflow-level-example.yaml`;
  const doc = parse(readFileSync(join(repoRoot, what), 'utf8')) as ManifestDoc & {
    spec: { executorPlugins: ExecutorPlugin[] };
  };
  const plugins = doc.spec.executorPlugins.map((p) => ({
    ...p,
    spec: {
      ...p.spec,
      sidecar: { ...p.spec.sidecar, container: withSettings(p.spec.sidecar.container, env) },
    },
  }));
  return { what, doc: { ...doc, spec: { ...doc.spec, executorPlugins: plugins } }, plugins };
}

/** A Workflow or WorkflowTemplate that declares `plugins` itself (spec.executorPlugins). */
export function declaring(doc: ManifestDoc, plugins: ExecutorPlugin[]): ManifestDoc {
  return { ...doc, spec: { ...doc.spec, executorPlugins: plugins } };
}
