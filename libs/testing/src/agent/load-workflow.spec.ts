import { validateArgoObject } from './load-workflow.js';

describe('validateArgoObject', () => {
  it.each(['constructor', 'toString', '__proto__', 'Pod'])('refuses kind %s: not an Argo kind', (kind) => {
    expect(() => validateArgoObject({ kind, metadata: { name: 'x' } }, 'wf.yaml')).toThrow(
      `wf.yaml: unsupported kind "${kind}" (expected Workflow, WorkflowTemplate, ClusterWorkflowTemplate, WorkflowEventBinding)`,
    );
  });
});
