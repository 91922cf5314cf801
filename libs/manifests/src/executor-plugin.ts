import { parseDocument } from 'yaml';
import { unknownContainerFields, unknownObjectMetaFields } from './strict-fields.js';

/** The ExecutorPlugin manifest (pkg/plugins/spec/plugin_types.go). */
export interface ExecutorPlugin {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [k: string]: unknown;
  };
  spec: { sidecar: { automountServiceAccountToken?: boolean; container: Container } };
}

export interface Container {
  name?: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ containerPort?: number; name?: string; protocol?: string }>;
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; [k: string]: unknown };
  }>;
  resources?: {
    requests?: Record<string, string | number> | null;
    limits?: Record<string, string | number> | null;
    [k: string]: unknown;
  };
  securityContext?: Record<string, unknown> | null;
  [k: string]: unknown;
}

export class PluginManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginManifestError';
  }
}

const TOP = ['apiVersion', 'kind', 'metadata', 'spec'];

/** sigs.k8s.io/yaml.UnmarshalStrict into spec.Plugin: unknown or duplicate fields are errors. */
export function parseExecutorPlugin(text: string, source = 'plugin.yaml'): ExecutorPlugin {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) throw new PluginManifestError(`${source}: ${doc.errors[0].message}`);
  const raw = (doc.toJSON() ?? {}) as Record<string, unknown>;
  const unknown: string[] = Object.keys(raw).filter((k) => !TOP.includes(k));
  unknown.push(...unknownObjectMetaFields(raw.metadata ?? {}));
  const spec = (raw.spec ?? {}) as Record<string, unknown>;
  unknown.push(
    ...Object.keys(spec)
      .filter((k) => k !== 'sidecar')
      .map((k) => `spec.${k}`),
  );
  const sidecar = (spec.sidecar ?? {}) as Record<string, unknown>;
  unknown.push(
    ...Object.keys(sidecar)
      .filter((k) => k !== 'container' && k !== 'automountServiceAccountToken')
      .map((k) => `spec.sidecar.${k}`),
  );
  unknown.push(...unknownContainerFields(sidecar.container ?? {}, 'spec.sidecar.container'));
  if (unknown.length > 0)
    throw new PluginManifestError(`${source}: error unmarshaling JSON: unknown field "${unknown[0]}"`);
  return {
    ...raw,
    metadata: (raw.metadata ?? {}) as ExecutorPlugin['metadata'],
    spec: { sidecar: { ...sidecar, container: (sidecar.container ?? {}) as Container } },
  } as ExecutorPlugin;
}

/** Plugin.Validate → Sidecar.Validate: presence checks in this order, the first failure only. */
export function validateExecutorPlugin(plugin: ExecutorPlugin): void {
  const c = plugin.spec.sidecar.container;
  const problem =
    (c.ports ?? []).length < 1
      ? 'at least one port is mandatory'
      : c.resources?.requests == null
        ? 'resources requests are mandatory'
        : c.resources?.limits == null
          ? 'resources limits are mandatory'
          : c.securityContext == null
            ? 'security context is mandatory'
            : undefined;
  if (problem) throw new PluginManifestError(`sidecar is invalid: ${problem}`);
}
