import { parse, parseAllDocuments, stringify } from 'yaml';
import { GENERATED_BY } from './agent-rbac.js';
import { containerJson } from './configmap.js';
import type { ExecutorPlugin } from './executor-plugin.js';
import { pluginKeys } from './lint.js';
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

/**
 * The template of the plugin description's example (its YAML block, a template or a list of them), when it
 * is a plugin template.
 */
function describedTemplate(plugin: ExecutorPlugin): { name: string; plugin: unknown } | undefined {
  const description = plugin.metadata.annotations?.['workflows.argoproj.io/description'] ?? '';
  const block = /```ya?ml\n([\s\S]*?)```/.exec(description)?.[1];
  if (!block) return undefined;
  const parsed = parse(block) as unknown;
  const template = (Array.isArray(parsed) ? parsed[0] : parsed) as {
    name?: unknown;
    plugin?: unknown;
  } | null;
  return template && typeof template.name === 'string' && template.plugin
    ? { name: template.name, plugin: template.plugin }
    : undefined;
}

/**
 * The first Workflow of the plugin's examples (files in name order); without one, a workflow running the
 * template of the plugin's description, or a one-step stand-in calling its first key. A plugin that hosts
 * others (the collection) answers none under its own name: the real agent fails such a step with "no plugin
 * executed the template".
 */
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
  const template = describedTemplate(plugin) ?? { name: 'main', plugin: { [pluginKeys(plugin)[0]]: {} } };
  return { spec: { entrypoint: template.name, templates: [template] } };
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
