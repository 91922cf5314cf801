// Binding YAML for the expression-bound tests (the `events test` CLI here, `serve` in test/reliability): a
// template, and bindings whose expressions never end or never stop allocating.

/** WorkflowTemplate `deploy`, in `namespace` or the default one. */
export const deployTemplate = (namespace?: string) => `---
apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata:
  name: deploy${namespace ? `\n  namespace: ${namespace}` : ''}
spec:
  entrypoint: main
  templates:
    - name: main
      container:
        image: busybox
`;

/** A WorkflowEventBinding; `spec`: its YAML lines under `spec:`. */
export const bindingYaml = (name: string, spec: string, namespace?: string) => `---
apiVersion: argoproj.io/v1alpha1
kind: WorkflowEventBinding
metadata:
  name: ${name}${namespace ? `\n  namespace: ${namespace}` : ''}
spec:
${spec}`;

/** 10^12 steps within expr's memory budget: a selector that never ends. */
export const NESTING = {
  source: 'let x=1..999; all(x,all(x,all(x,all(x,true))))',
  spec: '  event:\n    selector: let x=1..999; all(x,all(x,all(x,all(x,true))))\n',
};

/** sprig is not counted by expr's budget: a label that asks for 16 GB. */
export const UNTIL = {
  source: 'sprig.toString(len(sprig.until(2000000000)))',
  spec: `  event:
    selector: "true"
  submit:
    workflowTemplateRef:
      name: deploy
    metadata:
      labels:
        n: sprig.toString(len(sprig.until(2000000000)))
`,
};

/** Nor are strings: a parameter that doubles a string (and then some) 999,998 times. */
export const GROWING_STRING = {
  source: 'len(reduce(1..999998, toJSON(#acc) + #acc, "x"))',
  spec: `  event:
    selector: "true"
  submit:
    workflowTemplateRef:
      name: deploy
    arguments:
      parameters:
        - name: p
          valueFrom:
            event: 'len(reduce(1..999998, toJSON(#acc) + #acc, "x"))'
`,
};
