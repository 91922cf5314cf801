import { currentReferencedObjects, type ReferencedObject } from './env-references.js';
import type { ExecutorPlugin } from './executor-plugin.js';

export const PLACEHOLDER_PREFIX = 'REPLACE_WITH_';

/** The placeholder written for a key: never a value that could pass for a real credential. */
export function placeholder(env: string): string {
  return `${PLACEHOLDER_PREFIX}${env.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

const INTRO: Record<ReferencedObject['kind'], (plugin: string, file: string) => string[]> = {
  Secret: (plugin, file) => [
    `# Example Secret(s) for the ${plugin} executor plugin, from the secretKeyRefs in`,
    `# ${file}.`,
    '# Placeholders only: never commit real values. Create the Secret in every namespace whose workflows use',
    '# the plugin, before the first workflow runs (a sidecar whose required secretKeyRef is missing cannot',
    '# start, and the agent pod waits). Either fill in a copy of this file and apply the copy, or:',
  ],
  ConfigMap: (plugin, file) => [
    `# Example settings ConfigMap(s) for the ${plugin} executor plugin, from the configMapKeyRefs in`,
    `# ${file}. Create it in every namespace whose workflows use the plugin:`,
    '# fill in a copy of this file and apply the copy, or:',
  ],
};

const OUTRO = [
  '# Not part of kustomization.yaml on purpose: re-applying the kustomization for an upgrade would reset the',
  '# values to these placeholders. Keys marked optional can stay commented out.',
];

function createCommand(o: ReferencedObject): string {
  const required = o.keys.filter((k) => !k.optional);
  const literals = required.map((k) => ` --from-literal=${k.key}=...`).join('');
  return o.kind === 'Secret'
    ? `#   kubectl -n <namespace> create secret generic ${o.name}${literals}`
    : `#   kubectl -n <namespace> create configmap ${o.name}${literals}`;
}

function objectText(o: ReferencedObject): string {
  const field = o.kind === 'Secret' ? 'stringData' : 'data';
  const lines = ['apiVersion: v1', `kind: ${o.kind}`, 'metadata:', `  name: ${o.name}`];
  if (o.kind === 'Secret') lines.push('type: Opaque');
  if (o.keys.length === 0 && o.wholeObject) {
    lines.push(`${field}: {}`, `  # every key of this ${o.kind} becomes a variable of the sidecar (envFrom)`);
    return lines.join('\n');
  }
  // With every key optional (commented out) the field is empty, which Kubernetes reads as no data.
  lines.push(`${field}:`);
  for (const k of o.keys) {
    const note = `  # ${k.env}${k.optional ? ' (optional)' : ''}`;
    lines.push(note, `  ${k.optional ? '# ' : ''}${k.key}: ${placeholder(k.env)}`);
  }
  if (o.wholeObject) lines.push(`  # more keys become variables of the sidecar (envFrom)`);
  return lines.join('\n');
}

/**
 * `secret.example.yaml` / `settings.example.yaml`: the Secrets (or ConfigMaps) the sidecar reads, with
 * placeholders, or undefined when it reads none.
 */
export function exampleObjectsFile(
  plugin: ExecutorPlugin,
  kind: ReferencedObject['kind'],
  pluginFile: string,
): string | undefined {
  const objects = currentReferencedObjects(plugin.spec.sidecar.container).filter((o) => o.kind === kind);
  if (objects.length === 0) return undefined;
  const header = [
    '# This is an auto-generated file (npm run plugin:build). DO NOT EDIT',
    ...INTRO[kind](plugin.metadata.name ?? '', pluginFile),
    ...objects.map(createCommand),
    ...OUTRO,
  ];
  return `${header.join('\n')}\n${objects.map(objectText).join('\n---\n')}\n`;
}
