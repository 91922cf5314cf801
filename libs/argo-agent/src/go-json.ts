/**
 * JSON as Go's encoding/json writes the agent's request: struct fields in declaration order with empty
 * ones omitted (but `inputs`, `outputs` and `metadata` of a Template always present), maps with sorted keys,
 * compact, and `<`, `>`, `&` escaped as \u003c, \u003e, \u0026.
 */

// Field order of wfv1.Template (pkg/apis/workflow/v1alpha1/workflow_types.go).
const TEMPLATE_FIELDS = [
  'name',
  'inputs',
  'outputs',
  'nodeSelector',
  'affinity',
  'metadata',
  'daemon',
  'steps',
  'container',
  'containerSet',
  'script',
  'resource',
  'dag',
  'suspend',
  'data',
  'http',
  'plugin',
  'volumes',
  'initContainers',
  'sidecars',
  'archiveLocation',
  'activeDeadlineSeconds',
  'retryStrategy',
  'parallelism',
  'failFast',
  'tolerations',
  'schedulerName',
  'priorityClassName',
  'serviceAccountName',
  'automountServiceAccountToken',
  'executor',
  'hostAliases',
  'securityContext',
  'podSpecPatch',
  'metrics',
  'synchronization',
  'memoize',
  'timeout',
  'annotations',
  'pendingTimeout',
];
const ALWAYS_PRESENT = new Set(['inputs', 'outputs', 'metadata']);
const PARAMETER_FIELDS = ['name', 'default', 'value', 'valueFrom', 'globalName', 'enum', 'description'];
const INPUTS_FIELDS = ['parameters', 'artifacts'];
const OUTPUTS_FIELDS = ['parameters', 'artifacts', 'result', 'exitCode'];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 0) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function ordered(
  obj: Record<string, unknown>,
  fields: string[],
  always: Set<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (always.has(f)) out[f] = obj[f] ?? {};
    else if (!isEmpty(obj[f])) out[f] = obj[f];
  }
  // Fields this emulation does not know keep their place at the end, sorted (Go would not send them at all).
  for (const k of Object.keys(obj).sort()) if (!fields.includes(k) && !isEmpty(obj[k])) out[k] = obj[k];
  return out;
}

function structured(template: Record<string, unknown>): Record<string, unknown> {
  const t = { ...template };
  const inputs = (t.inputs ?? {}) as Record<string, unknown>;
  const outputs = (t.outputs ?? {}) as Record<string, unknown>;
  const params = (list: unknown) =>
    Array.isArray(list) ? list.map((p) => ordered(p as Record<string, unknown>, PARAMETER_FIELDS)) : list;
  t.inputs = ordered({ ...inputs, parameters: params(inputs.parameters) }, INPUTS_FIELDS);
  t.outputs = ordered({ ...outputs, parameters: params(outputs.parameters) }, OUTPUTS_FIELDS);
  return ordered(t, TEMPLATE_FIELDS, ALWAYS_PRESENT);
}

/** Serialises a value with sorted map keys except where `keepOrder` objects were already ordered. */
function marshal(value: unknown, keepOrder: WeakSet<object>): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => marshal(v, keepOrder)).join(',')}]`;
  const keys = keepOrder.has(value) ? Object.keys(value) : Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${marshal((value as Record<string, unknown>)[k], keepOrder)}`).join(',')}}`;
}

export function goEscape(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** The exact body of `POST /api/v1/template.execute` for a workflow and a processed template. */
export function marshalExecuteTemplateArgs(
  metadata: { name: string; namespace: string; uid: string; labels?: Record<string, string> },
  template: Record<string, unknown>,
): string {
  const keepOrder = new WeakSet<object>();
  const t = structured(template);
  keepOrder.add(t);
  for (const key of ['inputs', 'outputs'] as const) {
    const section = t[key] as Record<string, unknown>;
    keepOrder.add(section);
    for (const p of (section.parameters as object[] | undefined) ?? []) keepOrder.add(p);
  }
  // ObjectMeta's order: labels come after uid (their keys sorted, as Go writes a map).
  const meta = {
    name: metadata.name,
    namespace: metadata.namespace,
    uid: metadata.uid,
    ...(metadata.labels && { labels: metadata.labels }),
  };
  const args = { workflow: { metadata: meta }, template: t };
  [args, args.workflow, meta].forEach((o) => keepOrder.add(o));
  return goEscape(marshal(args as Json, keepOrder));
}
