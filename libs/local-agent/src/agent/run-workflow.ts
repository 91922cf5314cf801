import { parseManifests } from './load-workflow.js';
import { runWorkflowSpec, type RunOptions, type WorkflowResult } from './workflow-runner.js';
import type { WorkflowShape } from './workflow-types.js';

/**
 * Runs a workflow through the local agent. `workflow` is a Workflow object or YAML text (the first
 * Workflow in it; WorkflowTemplates in the same text are available to workflowTemplateRef/templateRef).
 */
export async function runWorkflow(
  workflow: WorkflowShape | string,
  options: RunOptions,
): Promise<WorkflowResult> {
  if (typeof workflow !== 'string') return runWorkflowSpec(workflow, options);
  const loaded = parseManifests(workflow);
  const wf = loaded.workflows[0];
  if (!wf) throw new Error('no Workflow in the given YAML');
  return runWorkflowSpec(wf, { ...options, templates: [...(options.templates ?? []), ...loaded.templates] });
}
