import { FORMER_VALUE_PREFIX } from '@app/contract';
import type { ExecutorPlugin } from './executor-plugin.js';
import { hostedPluginNames, type LintFinding } from './lint.js';

/**
 * The one naming convention of this repository's components: the component's name (`chat-notifier`) is its
 * app folder, its manifests folder and its ExecutorPlugin's `metadata.name`; the ConfigMap (Argo names it
 * after the plugin), the sidecar container and the Secret (and a ServiceAccount, should one be needed) are
 * `<component>-executor-plugin`; non-secret settings kept in a ConfigMap of their own (that name is taken by
 * the plugin's) are `<component>-executor-plugin-settings`.
 */
export function executorPluginObjectName(component: string): string {
  return `${component}-executor-plugin`;
}

export function settingsConfigMapName(component: string): string {
  return `${executorPluginObjectName(component)}-settings`;
}

interface KeyRef {
  name?: string;
  key?: string;
}

const C = 'spec.sidecar.container';

/** Findings for a plugin of this repository (`app`: its folder) that leaves the naming convention. */
export function lintNaming(plugin: ExecutorPlugin, file: string, app: string | undefined): LintFinding[] {
  if (!app) return [];
  const out: LintFinding[] = [];
  const add = (field: string, problem: string) => out.push({ file, field, problem });
  if (plugin.metadata.name !== app) add('metadata.name', `must be the component's name, ${app}`);
  const { container } = plugin.spec.sidecar;
  if (container.name !== executorPluginObjectName(app))
    add(`${C}.name`, `must be ${executorPluginObjectName(app)}`);
  // A collection reads the Secrets of the plugins it hosts.
  const components = [app, ...hostedPluginNames(plugin)];
  const allowed = {
    secretKeyRef: components.map(executorPluginObjectName),
    configMapKeyRef: components.map(settingsConfigMapName),
  };
  const env = container.env ?? [];
  const refOf = (e: (typeof env)[number]) => {
    const from = e.valueFrom as Partial<Record<keyof typeof allowed, KeyRef>> | undefined;
    const kind = (['secretKeyRef', 'configMapKeyRef'] as const).find((k) => from?.[k]);
    return kind && { kind, ref: from![kind]! };
  };
  env.forEach((e, i) => {
    const found = refOf(e);
    if (!found) return;
    if (e.name.startsWith(FORMER_VALUE_PREFIX)) {
      // A 0.1.0 object read for one release: beside the variable it stands in for, under the same key.
      const current = env.find((c) => c.name === e.name.slice(FORMER_VALUE_PREFIX.length));
      const currentRef = current && refOf(current);
      if (!currentRef || currentRef.kind !== found.kind || currentRef.ref.key !== found.ref.key)
        add(
          `${C}.env[${i}]`,
          `${e.name} must read the key of ${e.name.slice(FORMER_VALUE_PREFIX.length)} from the 0.1.0 object`,
        );
    } else if (!allowed[found.kind].includes(found.ref.name ?? ''))
      add(`${C}.env[${i}]`, `${e.name}: the ${found.kind} must name ${allowed[found.kind].join(' or ')}`);
  });
  return out;
}
