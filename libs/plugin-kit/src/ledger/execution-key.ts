import { createHash } from 'node:crypto';
import { toAnyString, type ExecuteTemplateArgs } from '@app/contract';
import { canonicalJson } from './canonical-json.js';

/**
 * Input parameters as a name → value map (value, else default), as the plugin sees them. Without a prototype:
 * the names come from the request, and one named `__proto__` must be kept (in the execution key too), not
 * swallowed by the setter, and `constructor` must find nothing that was not sent.
 */
export function inputParameters(args: ExecuteTemplateArgs): Record<string, string> {
  const params = Object.create(null) as Record<string, string>;
  for (const p of args.template.inputs?.parameters ?? []) {
    const value = toAnyString(p.value) ?? toAnyString(p.default);
    if (value !== undefined) params[p.name] = value;
  }
  return params;
}

/**
 * The execution key: sha256 of workflow uid + template name + canonical JSON of the plugin body and input
 * parameters. The agent sends no node id, so this is what identifies "the same call" across requeues,
 * agent retries and sidecar restarts. Two steps that call one template with identical inputs collide:
 * authors separate them with the body's `key` field or `{{node.name}}` (see docs).
 */
export function executionKey(
  args: ExecuteTemplateArgs,
  pluginBody: unknown,
  parameters: Record<string, string>,
): string {
  const material = canonicalJson({
    uid: args.workflow.metadata.uid,
    template: args.template.name ?? '',
    body: pluginBody,
    parameters,
  });
  return createHash('sha256').update(material).digest('hex');
}
