import type { ExecuteTemplateArgs } from './execute-template.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The plugin body under `template.plugin.<key>` when the template is addressed to `key`, else undefined.
 * Uses own properties only, so `__proto__`/`constructor` keys in a hostile body cannot match.
 */
export function pluginBodyFor(
  body: unknown,
  key: string,
): { found: true; value: unknown } | { found: false } {
  if (!isObject(body)) return { found: false };
  const template = body.template;
  if (!isObject(template)) return { found: false };
  const plugin = template.plugin;
  if (!isObject(plugin) || !Object.prototype.hasOwnProperty.call(plugin, key)) return { found: false };
  return { found: true, value: plugin[key] };
}

/** Checks the envelope fields a plugin relies on; returns the problems, each naming the field. */
export function envelopeProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const workflow = body.workflow;
  const metadata = isObject(workflow) ? workflow.metadata : undefined;
  if (!isObject(metadata)) {
    problems.push('workflow.metadata: must be an object');
  } else {
    for (const field of ['name', 'namespace', 'uid'] as const) {
      if (typeof metadata[field] !== 'string') problems.push(`workflow.metadata.${field}: must be a string`);
    }
  }
  const template = body.template as Record<string, unknown>;
  if (template.name !== undefined && typeof template.name !== 'string')
    problems.push('template.name: must be a string');
  const inputs = template.inputs;
  if (inputs !== undefined && !isObject(inputs)) problems.push('template.inputs: must be an object');
  const params = isObject(inputs) ? inputs.parameters : undefined;
  if (
    params !== undefined &&
    (!Array.isArray(params) || params.some((p) => !isObject(p) || typeof p.name !== 'string'))
  ) {
    problems.push('template.inputs.parameters: must be a list of {name, value}');
  }
  return problems;
}

export function asExecuteTemplateArgs(body: Record<string, unknown>): ExecuteTemplateArgs {
  return body as unknown as ExecuteTemplateArgs;
}
