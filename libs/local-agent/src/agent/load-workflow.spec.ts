import { parseManifests, validateArgoObject } from './load-workflow.js';

describe('validateArgoObject', () => {
  it.each(['constructor', 'toString', '__proto__', 'Pod'])('refuses kind %s: not an Argo kind', (kind) => {
    expect(() => validateArgoObject({ kind, metadata: { name: 'x' } }, 'wf.yaml')).toThrow(
      `wf.yaml: unsupported kind "${kind}" (expected Workflow, WorkflowTemplate, ClusterWorkflowTemplate, WorkflowEventBinding)`,
    );
  });
});

// What `argo lint --offline` (v4.1.4) answers for each, after `in "<name>" (<kind>): ` (a step's unknown key:
// `failed to parse YAML from file <f>: json: unknown field "bogusField"`).
describe('unknown fields, refused as argo lint refuses them', () => {
  const workflow = (template: string, extra = ''): string =>
    `apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {generateName: hello-}
spec:
  entrypoint: main${extra}
  templates:
    - name: main
${template}`;

  it('names an unknown field of a template by its path', () => {
    const text = workflow('      bogusField: 1\n      plugin: {hello: {name: world}}\n');
    expect(() => parseManifests(text, 'wf.yaml')).toThrow(
      'wf.yaml: Workflow/hello-: strict decoding error: unknown field "spec.templates[0].bogusField"',
    );
  });

  it('lists every unknown field, down to Kubernetes types and map values', () => {
    const text = workflow(
      '      container: {image: alpine, imag: typo}\n      outputs: {parameters: [{name: x, valueFrom: {suppled: {}}}]}\n',
      '\n  nodeSelectr: {a: b}\n  podMetadata: {labels: {a: b}, label: {}}',
    );
    expect(() => parseManifests(text, 'wf.yaml')).toThrow(
      'wf.yaml: Workflow/hello-: strict decoding error: unknown field "spec.nodeSelectr", unknown field "spec.podMetadata.label", unknown field "spec.templates[0].container.imag", unknown field "spec.templates[0].outputs.parameters[0].valueFrom.suppled"',
    );
  });

  it('a step: its own keys only, in Go words without a path (ParallelSteps decodes steps itself)', () => {
    const steps = '      steps:\n        - - name: a\n            template: b\n            bogusField: 1\n';
    expect(() => parseManifests(workflow(steps), 'wf.yaml')).toThrow(
      'wf.yaml: Workflow/hello-: json: unknown field "bogusField"',
    );
    const deeper =
      '      steps:\n        - - name: a\n            template: b\n            arguments: {bogus: 1}\n';
    expect(parseManifests(workflow(deeper), 'wf.yaml').workflows).toHaveLength(1);
  });

  it('reads free-form values as Argo does: any plugin body, withItems, parameter values', () => {
    const text = workflow(
      '      plugin: {hello: {anything: {goes: [1]}}}\n      inputs: {parameters: [{name: p, value: "1"}]}\n' +
        '    - name: fan-out\n      dag: {tasks: [{name: t, template: main, withItems: [{any: {key: 1}}]}]}\n',
    );
    expect(parseManifests(text, 'wf.yaml').workflows).toHaveLength(1);
  });

  it('checks workflow templates; not event bindings, which argo lint does not lint', () => {
    const template = workflow('      bogusField: 1\n      plugin: {hello: {}}\n').replace(
      'kind: Workflow\nmetadata: {generateName: hello-}',
      'kind: WorkflowTemplate\nmetadata: {name: hello}',
    );
    expect(() => parseManifests(template, 't.yaml')).toThrow(
      't.yaml: WorkflowTemplate/hello: strict decoding error: unknown field "spec.templates[0].bogusField"',
    );
    const binding =
      'apiVersion: argoproj.io/v1alpha1\nkind: WorkflowEventBinding\nmetadata: {name: b}\nspec:\n  event: {selector: "true", bogus: 1}\n';
    expect(parseManifests(binding, 'b.yaml').bindings).toHaveLength(1);
  });
});
