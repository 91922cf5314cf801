// Unknown fields, as `argo lint` finds them: it decodes every object strictly into Argo's Go types
// (workflow/common/parse.go: sigs.k8s.io/json UnmarshalStrict), and a field that no struct declares is an error.
// The Go types' fields are the properties of Argo's JSON schema, which is generated from them.
import { argoWorkflowSchema, type ArgoSchemaNode } from '../argo-data.js';

const ARGO = 'io.argoproj.workflow.v1alpha1';

/**
 * Types with their own UnmarshalJSON that read any JSON (a plugin body, an item of withItems, a raw object, a
 * number or string): nothing inside them is an unknown field.
 */
const FREE_FORM = new Set(['Plugin', 'Item', 'Object', 'AnyString', 'Amount'].map((t) => `${ARGO}.${t}`));
/**
 * ParallelSteps' UnmarshalJSON checks the keys of each step itself and then decodes the steps without
 * strictness: an unknown key of a step ends the decoding with Go's plain `json: unknown field "<key>"`, and
 * nothing deeper in a step is checked.
 */
const PARALLEL_STEPS = `${ARGO}.ParallelSteps`;
const WORKFLOW_STEP = `${ARGO}.WorkflowStep`;

const refName = (node: ArgoSchemaNode): string | undefined => node.$ref?.replace('#/definitions/', '');

/**
 * Argo's own error for the unknown fields of an object of `kind` (`strict decoding error: unknown field
 * "spec.templates[0].bogusField"`), or undefined when every field is known.
 */
export function unknownFieldsError(object: Record<string, unknown>, kind: string): string | undefined {
  const { definitions } = argoWorkflowSchema();
  const root = definitions[`${ARGO}.${kind}`];
  if (!root) return undefined;
  const unknown: string[] = [];
  let fatal: string | undefined;
  const at = (path: string, key: string): string => (path ? `${path}.${key}` : key);

  const walk = (value: unknown, node: ArgoSchemaNode, path: string): void => {
    if (fatal) return;
    const name = refName(node);
    if (name && FREE_FORM.has(name)) return;
    if (name === PARALLEL_STEPS) return checkSteps(value);
    const schema = name ? (definitions[name] ?? {}) : node;
    if (Array.isArray(value)) {
      if (schema.items) value.forEach((item, i) => walk(item, schema.items!, `${path}[${i}]`));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      const field = schema.properties?.[key];
      const mapValue =
        typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      if (field) walk(child, field, at(path, key));
      else if (mapValue) walk(child, mapValue, at(path, key));
      else if (schema.properties) unknown.push(`unknown field "${at(path, key)}"`);
    }
  };

  const checkSteps = (value: unknown): void => {
    const known = definitions[WORKFLOW_STEP]?.properties ?? {};
    for (const step of Array.isArray(value) ? value : []) {
      if (step === null || typeof step !== 'object') continue;
      const key = Object.keys(step).find((k) => !Object.hasOwn(known, k));
      if (key !== undefined) {
        fatal = `json: unknown field "${key}"`;
        return;
      }
    }
  };

  walk(object, root, '');
  if (fatal) return fatal;
  return unknown.length > 0 ? `strict decoding error: ${unknown.join(', ')}` : undefined;
}
