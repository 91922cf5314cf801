import { FORMER_VALUE_PREFIX } from '@app/contract';
import type { Container } from './executor-plugin.js';

/** One key of a Secret or ConfigMap the sidecar reads, and the variable it becomes. */
export interface ReferencedKey {
  key: string;
  env: string;
  optional: boolean;
}

/** A Secret or ConfigMap the sidecar needs in the workflow's namespace. */
export interface ReferencedObject {
  kind: 'Secret' | 'ConfigMap';
  name: string;
  keys: ReferencedKey[];
  /** envFrom: every key becomes a variable (the keys are not known from the manifest). */
  wholeObject: boolean;
  /** envFrom with optional: true, or every key optional. */
  optional: boolean;
}

interface KeyRef {
  name?: string;
  key?: string;
  optional?: boolean;
}

/** The Secrets and ConfigMaps a container's env and envFrom refer to, in order of first mention. */
export function referencedObjects(container: Container): ReferencedObject[] {
  const objects = new Map<string, ReferencedObject>();
  const object = (kind: ReferencedObject['kind'], name: string): ReferencedObject => {
    const id = `${kind}/${name}`;
    let found = objects.get(id);
    if (!found) {
      found = { kind, name, keys: [], wholeObject: false, optional: true };
      objects.set(id, found);
    }
    return found;
  };
  for (const e of container.env ?? []) {
    const from = e.valueFrom as { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef } | undefined;
    for (const [kind, ref] of [
      ['Secret', from?.secretKeyRef],
      ['ConfigMap', from?.configMapKeyRef],
    ] as const) {
      if (!ref?.name || !ref.key) continue;
      const o = object(kind, ref.name);
      if (!o.keys.some((k) => k.key === ref.key))
        o.keys.push({ key: ref.key, env: e.name, optional: ref.optional === true });
      o.optional &&= ref.optional === true;
    }
  }
  const envFrom = (container.envFrom ?? []) as Array<{
    secretRef?: { name?: string; optional?: boolean };
    configMapRef?: { name?: string; optional?: boolean };
  }>;
  for (const source of envFrom) {
    for (const [kind, ref] of [
      ['Secret', source.secretRef],
      ['ConfigMap', source.configMapRef],
    ] as const) {
      if (!ref?.name) continue;
      const o = object(kind, ref.name);
      o.wholeObject = true;
      o.optional &&= ref.optional === true;
    }
  }
  return [...objects.values()];
}

/**
 * The objects to create for a sidecar: those its env refers to, without the 0.1.0 objects a manifest still reads
 * for one release (`FORMER_` variables).
 */
export function currentReferencedObjects(container: Container): ReferencedObject[] {
  return referencedObjects({
    ...container,
    env: container.env?.filter((e) => !e.name.startsWith(FORMER_VALUE_PREFIX)),
  });
}
