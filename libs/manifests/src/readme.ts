import type { ExecutorPlugin } from './executor-plugin.js';

/** The README's head: the plugin's name, what it needs, its image and description. */
function readmeHead(plugin: ExecutorPlugin): string[] {
  const annotations = plugin.metadata.annotations ?? {};
  return [
    '<!-- This is an auto-generated file. DO NOT EDIT -->',
    `# ${plugin.metadata.name ?? ''}`,
    '',
    `* Needs: ${annotations['workflows.argoproj.io/version'] ?? ''}`,
    `* Image: ${plugin.spec.sidecar.container.image ?? ''}`,
    '',
    annotations['workflows.argoproj.io/description'] ?? '',
    '',
  ];
}

/** The README `argo executor-plugin build` writes (cmd/argo/commands/executorplugin/io.go), byte for byte. */
export function pluginReadme(plugin: ExecutorPlugin): string {
  const name = plugin.metadata.name ?? '';
  return [
    ...readmeHead(plugin),
    'Install:',
    '',
    `    kubectl apply -f ${name}-executor-plugin-configmap.yaml`,
    '',
    'Uninstall:',
    '\t',
    `    kubectl delete cm ${name}-executor-plugin `,
    '',
  ].join('\n');
}

/**
 * The README of a plugin directory that `npm run plugin:build` gives a kustomization (`dir`, relative to the
 * repository): installed with its agent RBAC by `kubectl apply -k`, in the workflows' namespace, as
 * docs/install.md teaches; `secretExample` names the Secret to create first, when the plugin has one.
 */
export function kustomizeReadme(plugin: ExecutorPlugin, dir: string, secretExample?: string): string {
  return [
    ...readmeHead(plugin),
    "Install (the plugin's ConfigMap and the agent RBAC, in the namespace the workflows run in):",
    '',
    ...(secretExample ? [`Create the Secret first (${secretExample}), then:`, ''] : []),
    `    kubectl apply -n <namespace> -k ${dir}`,
    '',
    'Uninstall:',
    '',
    `    kubectl delete -n <namespace> -k ${dir}`,
    '',
  ].join('\n');
}
