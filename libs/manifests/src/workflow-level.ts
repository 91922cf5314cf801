import { parseAllDocuments, stringify } from 'yaml';
import { GENERATED_BY } from './agent-rbac.js';
import { containerJson } from './configmap.js';
import type { ExecutorPlugin } from './executor-plugin.js';
import { ARGO_WORKFLOW_LEVEL_MIN_VERSION } from './versioning.js';

/** The plugin as an entry of `spec.executorPlugins` (WorkflowSpec.ExecutorPlugins, Argo ≥ v4.1). */
export function workflowLevelPlugin(plugin: ExecutorPlugin): Record<string, unknown> {
  const automount = plugin.spec.sidecar.automountServiceAccountToken === true;
  return {
    metadata: { name: plugin.metadata.name ?? '' },
    spec: {
      sidecar: {
        ...(automount && { automountServiceAccountToken: true }),
        container: containerJson(plugin.spec.sidecar.container),
      },
    },
  };
}

interface ExampleWorkflow {
  kind?: string;
  metadata?: Record<string, unknown>;
  spec?: Record<string, unknown>;
}

/** The first Workflow of the plugin's examples (files in name order), or a one-step stand-in. */
function baseWorkflow(
  plugin: ExecutorPlugin,
  examples: Array<{ name: string; text: string }>,
): ExampleWorkflow {
  for (const example of [...examples].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    for (const doc of parseAllDocuments(example.text)) {
      const object = doc.toJSON() as ExampleWorkflow | null;
      if (object?.kind === 'Workflow' && object.spec) return object;
    }
  }
  return {
    spec: { entrypoint: 'main', templates: [{ name: 'main', plugin: { [plugin.metadata.name ?? '']: {} } }] },
  };
}

/**
 * manifests/<plugin>/workflow-level-example.yaml: one of the plugin's example workflows carrying the plugin in
 * its own spec instead of relying on the installed ConfigMap.
 */
export function workflowLevelExampleFile(
  plugin: ExecutorPlugin,
  app: string,
  examples: Array<{ name: string; text: string }>,
): string {
  const base = baseWorkflow(plugin, examples);
  const { executorPlugins: _ignored, ...spec } = base.spec ?? {};
  const workflow = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: `${app}-workflow-level-` },
    spec: { executorPlugins: [workflowLevelPlugin(plugin)], ...spec },
  };
  const name = plugin.metadata.name ?? '';
  const header = [
    GENERATED_BY.trimEnd(),
    `# The ${name} plugin declared by the workflow itself (spec.executorPlugins): Argo ${ARGO_WORKFLOW_LEVEL_MIN_VERSION} with`,
    '# ARGO_WORKFLOW_LEVEL_EXECUTOR_PLUGINS=true on the controller (otherwise the agent pod is not created and',
    '# every plugin and HTTP node fails with "workflow-level executor plugins are disabled in the controller").',
    '# When spec.executorPlugins is set, the controller ignores every installed (ConfigMap) plugin for this',
    '# workflow: list every plugin it uses here. The Secrets the sidecar reads and the agent RBAC',
    `# (agent-rbac.yaml) are still needed in the workflow's namespace; the ConfigMap is not.`,
  ];
  return `${header.join('\n')}\n${stringify(workflow, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
