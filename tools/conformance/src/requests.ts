import { randomBytes, randomUUID } from 'node:crypto';
import { goEscape, marshalExecuteTemplateArgs } from '@app/argo-agent/go-json.js';

export interface WorkflowMeta {
  name: string;
  namespace: string;
  uid: string;
}

/** A fresh workflow per scenario: the uid is part of every sane execution key, so runs never replay each other. */
export function newWorkflow(label: string): WorkflowMeta {
  return {
    name: `conformance-${label}-${randomBytes(3).toString('hex').slice(0, 5)}`,
    namespace: 'argo',
    uid: randomUUID(),
  };
}

const MARK = '__conformance_plugin_body__';

/**
 * The body of `POST /api/v1/template.execute` exactly as the agent marshals it (Go field order, `inputs`,
 * `outputs` and `metadata` always present, HTML characters escaped). The plugin body is a json.RawMessage
 * in Go, so its key order is kept as given here.
 */
export function executeBody(
  meta: WorkflowMeta,
  key: string,
  pluginBody: unknown,
  template: Record<string, unknown> = {},
): string {
  const json = marshalExecuteTemplateArgs(meta, {
    name: 'conformance',
    ...template,
    plugin: { [key]: MARK },
  });
  return json.replace(JSON.stringify(MARK), () => goEscape(JSON.stringify(pluginBody ?? {})));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Same value, object keys in `order` at every depth. */
export function reorderKeys(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => reorderKeys(v, order));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(order(Object.keys(value)).map((k) => [k, reorderKeys(value[k], order)]));
}

export const sortedKeys = (value: unknown): unknown => reorderKeys(value, (keys) => [...keys].sort());
export const reversedKeys = (value: unknown): unknown =>
  reorderKeys(value, (keys) => [...keys].sort().reverse());

export interface BadConfig {
  label: string;
  body: unknown;
}

/** Bodies every plugin must refuse with `Failed` + a message: derived from the example config when there is one. */
export function badConfigs(config: unknown): BadConfig[] {
  const base = isPlainObject(config) ? config : {};
  const out: BadConfig[] = [
    {
      label: 'an unknown field (conformanceUnknownField)',
      body: sortedKeys({ ...base, conformanceUnknownField: 'not a field of this plugin' }),
    },
  ];
  const field = wrongTypeField(base);
  if (field) {
    const value = base[field];
    const wrong =
      isPlainObject(value) || Array.isArray(value)
        ? 'conformance: wrong type'
        : { conformance: 'wrong type' };
    out.push({
      label: `a wrong type for "${field}" (${isPlainObject(wrong) ? 'an object' : 'a string'} instead of ${kindOf(value)})`,
      body: sortedKeys({ ...base, [field]: wrong }),
    });
  }
  out.push({ label: 'a body that is not an object (a string)', body: 'conformance: not an object' });
  return out;
}

/** The field whose type is changed: the first string field (the most common kind), else the first field. */
function wrongTypeField(config: Record<string, unknown>): string | undefined {
  const keys = Object.keys(config).sort();
  return keys.find((k) => typeof config[k] === 'string') ?? keys[0];
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Template fields Argo may send that a plugin must ignore (conformance case 32). */
export const EXTRA_TEMPLATE_FIELDS: Record<string, unknown> = {
  inputs: {
    parameters: [{ name: 'conformance-extra', default: 'default-value', value: 'supplied-value' }],
  },
  metadata: {
    labels: { 'conformance.argoproj.io/probe': 'extra-fields' },
    annotations: { 'conformance.argoproj.io/note': 'ignore me' },
  },
  retryStrategy: { limit: '2', retryPolicy: 'OnFailure' },
  timeout: '1h',
};
