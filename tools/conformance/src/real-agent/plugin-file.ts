// The plugin as an administrator installs it: its plugin.yaml (an ExecutorPlugin, turned into its ConfigMap as
// `argo executor-plugin build` does) or the ConfigMap itself.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CONFIGMAP_TYPE_LABEL, toConfigMap, type ExecutorPlugin } from '@app/manifests';
import { SetupError } from '../run.js';

export interface PluginInstall {
  /** The plugin's name: the ExecutorPlugin's, or the ConfigMap's without `-executor-plugin`. */
  name: string;
  configMap: { metadata: { name: string; namespace?: string } };
}

export function readPluginFile(path: string): PluginInstall {
  let doc: { kind?: string; metadata?: { name?: string; labels?: Record<string, string> } };
  try {
    doc = parse(readFileSync(path, 'utf8')) as typeof doc;
  } catch (err) {
    throw new SetupError(`--plugin ${path}: ${(err as Error).message}`);
  }
  if (doc?.kind === 'ExecutorPlugin') {
    try {
      const configMap = toConfigMap(doc as ExecutorPlugin);
      return { name: doc.metadata?.name ?? '', configMap: withoutNamespace(configMap) };
    } catch (err) {
      throw new SetupError(`--plugin ${path}: ${(err as Error).message}`);
    }
  }
  const name = doc?.metadata?.name ?? '';
  if (
    doc?.kind !== 'ConfigMap' ||
    doc.metadata?.labels?.[CONFIGMAP_TYPE_LABEL] !== 'ExecutorPlugin' ||
    !name.endsWith('-executor-plugin')
  )
    throw new SetupError(
      `--plugin ${path}: expected an ExecutorPlugin (plugin.yaml) or its ConfigMap (<name>-executor-plugin, labelled ${CONFIGMAP_TYPE_LABEL}: ExecutorPlugin)`,
    );
  return {
    name: name.slice(0, -'-executor-plugin'.length),
    configMap: withoutNamespace(doc as PluginInstall['configMap']),
  };
}

/** The kit installs into its own namespace, whatever the file says. */
function withoutNamespace<T extends { metadata: { namespace?: string } }>(object: T): T {
  const { namespace: _ignored, ...metadata } = object.metadata;
  return { ...object, metadata } as T;
}
