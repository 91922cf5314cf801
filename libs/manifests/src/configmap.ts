import { parse } from 'yaml';
import { marshalGoYaml } from './go-yaml.js';
import {
  PluginManifestError,
  validateExecutorPlugin,
  type Container,
  type ExecutorPlugin,
} from './executor-plugin.js';
import { unknownContainerFields } from './strict-fields.js';

export const CONFIGMAP_TYPE_LABEL = 'workflows.argoproj.io/configmap-type';
export const GENERATED_HEADER = '# This is an auto-generated file. DO NOT EDIT\n';

export interface ConfigMap {
  apiVersion: 'v1';
  kind: 'ConfigMap';
  metadata: {
    name: string;
    namespace?: string;
    labels: Record<string, string>;
    annotations?: Record<string, string>;
    creationTimestamp: null;
  };
  data: Record<string, string>;
}

// Map-typed (omitempty) fields of a Container: Go drops them when empty. Other objects are structs or
// pointers to structs, which Go keeps even when empty (`securityContext: {}`).
const MAP_FIELDS = new Set(['resources.requests', 'resources.limits']);

function omitEmpty(value: unknown, path: string): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v, i) => omitEmpty(v, `${path}[${i}]`) ?? (typeof v === 'object' ? {} : v));
    return items.length === 0 ? undefined : items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const child = omitEmpty(v, path ? `${path}.${k}` : k);
      if (child !== undefined) out[k] = child;
    }
    return Object.keys(out).length === 0 && MAP_FIELDS.has(path) ? undefined : out;
  }
  return value;
}

/**
 * corev1.Container as Go marshals it: `name` (no omitempty) and `resources` (a struct value) always present,
 * empty strings, lists and maps omitted, pointers to structs kept even when empty. The Container's own
 * booleans (stdin, tty, ...) are plain omitempty bools, dropped when false; nested ones such as
 * securityContext.allowPrivilegeEscalation are pointers, kept when false.
 */
export function containerJson(container: Container): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(container)) {
    const child = v === false ? undefined : omitEmpty(v, k);
    if (child !== undefined) out[k] = child;
  }
  out.name ??= '';
  out.resources ??= {};
  return out;
}

/** workflow/util/plugin/configmap.go ToConfigMap. */
export function toConfigMap(plugin: ExecutorPlugin): ConfigMap {
  validateExecutorPlugin(plugin);
  const name = `${plugin.metadata.name ?? ''}-executor-plugin`;
  const annotations = { ...plugin.metadata.annotations };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      ...(plugin.metadata.namespace && { namespace: plugin.metadata.namespace }),
      labels: { [CONFIGMAP_TYPE_LABEL]: plugin.kind ?? '', ...plugin.metadata.labels },
      ...(Object.keys(annotations).length > 0 && { annotations }),
      creationTimestamp: null,
    },
    data: {
      'sidecar.automountServiceAccountToken': String(
        plugin.spec.sidecar.automountServiceAccountToken === true,
      ),
      'sidecar.container': marshalGoYaml(containerJson(plugin.spec.sidecar.container)),
    },
  };
}

/** The file `argo executor-plugin build` writes: the DO-NOT-EDIT header, then the ConfigMap. */
export function configMapFile(cm: ConfigMap): string {
  return GENERATED_HEADER + marshalGoYaml(cm);
}

/** FromConfigMap (what the controller does with a ConfigMap it discovers). */
export function fromConfigMap(cm: {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    namespace?: string;
  };
  data?: Record<string, string>;
}): ExecutorPlugin {
  const labels = { ...cm.metadata.labels };
  const kind = labels[CONFIGMAP_TYPE_LABEL];
  delete labels[CONFIGMAP_TYPE_LABEL];
  const containerText = cm.data?.['sidecar.container'] ?? '';
  const container = (parse(containerText) ?? {}) as Container;
  const unknown = unknownContainerFields(container);
  if (unknown.length > 0)
    throw new PluginManifestError(`error unmarshaling JSON: unknown field "${unknown[0]}"`);
  const plugin: ExecutorPlugin = {
    kind,
    metadata: {
      name: cm.metadata.name.replace(/-executor-plugin$/, ''),
      ...(cm.metadata.namespace && { namespace: cm.metadata.namespace }),
      ...(Object.keys(labels).length > 0 && { labels }),
      ...(cm.metadata.annotations && { annotations: { ...cm.metadata.annotations } }),
    },
    spec: {
      sidecar: {
        automountServiceAccountToken: cm.data?.['sidecar.automountServiceAccountToken'] === 'true',
        container,
      },
    },
  };
  validateExecutorPlugin(plugin);
  return plugin;
}
