import type { ExecutorPlugin } from './executor-plugin.js';
import type { LintFinding } from './lint.js';

/**
 * The one naming convention of this repository's components: the component's name (`chat-notifier`) is its
 * app folder, its manifests folder and its ExecutorPlugin's `metadata.name`; the ConfigMap (Argo names it
 * after the plugin), the sidecar container and the Secret (and a ServiceAccount, should one be needed) are
 * `<component>-executor-plugin`.
 */
export function executorPluginObjectName(component: string): string {
  return `${component}-executor-plugin`;
}

/** Findings for a plugin of this repository (`app`: its folder) that leaves the naming convention. */
export function lintNaming(plugin: ExecutorPlugin, file: string, app: string | undefined): LintFinding[] {
  if (!app) return [];
  const out: LintFinding[] = [];
  if (plugin.metadata.name !== app)
    out.push({ file, field: 'metadata.name', problem: `must be the component's name, ${app}` });
  const container = plugin.spec.sidecar.container.name;
  if (container !== executorPluginObjectName(app))
    out.push({
      file,
      field: 'spec.sidecar.container.name',
      problem: `must be ${executorPluginObjectName(app)}`,
    });
  return out;
}
