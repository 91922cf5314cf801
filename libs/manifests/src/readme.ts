import type { ExecutorPlugin } from './executor-plugin.js';

/** The README `argo executor-plugin build` writes (cmd/argo/commands/executorplugin/io.go), byte for byte. */
export function pluginReadme(plugin: ExecutorPlugin): string {
  const name = plugin.metadata.name ?? '';
  const annotations = plugin.metadata.annotations ?? {};
  return [
    '<!-- This is an auto-generated file. DO NOT EDIT -->',
    `# ${name}`,
    '',
    `* Needs: ${annotations['workflows.argoproj.io/version'] ?? ''}`,
    `* Image: ${plugin.spec.sidecar.container.image ?? ''}`,
    '',
    annotations['workflows.argoproj.io/description'] ?? '',
    '',
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
