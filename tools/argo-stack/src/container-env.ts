// A container's environment as the kubelet makes it: envFrom, then env in order with $(VAR) expansion, values
// from Secrets and ConfigMaps (a missing optional one leaves the variable out), fieldRef and resourceFieldRef.
// Shared by the pod runner and the stack's shared agents, which are configured as their Deployment says.
import type { Container, EnvVar } from './pod-types.js';

/** A reference the container needs and cannot have yet: the kubelet's CreateContainerConfigError. */
export class Missing extends Error {}

export interface EnvSources {
  /** A Secret's or ConfigMap's data, decoded; throws Missing for one that is needed and absent. */
  data(kind: 'secrets' | 'configmaps', name: string, optional?: boolean): Promise<Record<string, string>>;
  /** A fieldRef's value (metadata.name, status.podIP...). */
  field(path: string): string;
  /** For messages. */
  namespace: string;
}

export async function containerEnv(
  container: Container,
  base: Record<string, string>,
  sources: EnvSources,
): Promise<Record<string, string>> {
  const env: Record<string, string> = { ...base };
  for (const from of container.envFrom ?? []) {
    const ref = from.secretRef ?? from.configMapRef;
    if (!ref) continue;
    const data = await sources.data(from.secretRef ? 'secrets' : 'configmaps', ref.name, ref.optional);
    for (const [k, v] of Object.entries(data)) env[`${from.prefix ?? ''}${k}`] = v;
  }
  for (const variable of container.env ?? []) {
    const value = await envValue(variable, container, env, sources);
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

async function envValue(
  variable: EnvVar,
  container: Container,
  env: Record<string, string>,
  sources: EnvSources,
): Promise<string | undefined> {
  if (variable.value !== undefined) {
    return variable.value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) =>
      name === undefined ? '$' : (env[name] ?? m),
    );
  }
  const from = variable.valueFrom;
  if (!from) return '';
  const ref = from.secretKeyRef ?? from.configMapKeyRef;
  if (ref) {
    const data = await sources.data(from.secretKeyRef ? 'secrets' : 'configmaps', ref.name, ref.optional);
    if (ref.key in data) return data[ref.key];
    if (ref.optional) return undefined;
    throw new Missing(
      `couldn't find key ${ref.key} in ${from.secretKeyRef ? 'Secret' : 'ConfigMap'} ${sources.namespace}/${ref.name}`,
    );
  }
  if (from.fieldRef) return sources.field(from.fieldRef.fieldPath);
  if (from.resourceFieldRef) return resourceValue(container, from.resourceFieldRef);
  return '';
}

function resourceValue(container: Container, ref: { resource: string; divisor?: string }): string {
  const [kind, name] = ref.resource.split('.') as ['limits' | 'requests', string];
  const raw = container.resources?.[kind]?.[name];
  if (raw === undefined) return name === 'cpu' ? '2' : String(24 * 1024 ** 3);
  return String(Math.ceil(parseQuantity(raw) / parseQuantity(ref.divisor ?? '1')));
}

const UNITS: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
};

/** A Kubernetes quantity in its base unit (`40m` → 0.04 CPUs, `64Mi` → bytes); NaN when it is none. */
export function parseQuantity(q: string): number {
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(q);
  return m ? Number(m[1]) * (UNITS[m[2]] ?? NaN) : Number(q);
}
