// The object-meta checks the Kubernetes API server applies when the Workflow is created (422 Invalid).

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QUALIFIED_NAME_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function qualifiedNameProblems(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) return [QUALIFIED_NAME_MESSAGE];
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]!];
  const problems: string[] = [];
  if (prefix !== undefined) {
    if (prefix === '') problems.push('prefix part must be non-empty');
    else if (prefix.length > 253) problems.push('prefix part must be no more than 253 characters');
    else if (!SUBDOMAIN.test(prefix)) problems.push(`prefix part ${SUBDOMAIN_MESSAGE}`);
  }
  if (name === '') problems.push('name part must be non-empty');
  else if (name!.length > 63) problems.push('name part must be no more than 63 characters');
  else if (!QUALIFIED_NAME.test(name!)) problems.push(QUALIFIED_NAME_MESSAGE);
  return problems;
}

/** Field errors of a new object's metadata, formatted like apimachinery's field.ErrorList. */
export function objectMetaProblems(meta: {
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}): string[] {
  const problems: string[] = [];
  const invalid = (field: string, value: string, detail: string) =>
    problems.push(`${field}: Invalid value: ${JSON.stringify(value)}: ${detail}`);
  if (meta.name.length > 253) invalid('metadata.name', meta.name, 'must be no more than 253 characters');
  else if (!SUBDOMAIN.test(meta.name)) invalid('metadata.name', meta.name, SUBDOMAIN_MESSAGE);
  for (const [key, value] of Object.entries(meta.labels)) {
    for (const p of qualifiedNameProblems(key)) invalid('metadata.labels', key, p);
    if (value.length > 63) invalid('metadata.labels', value, 'must be no more than 63 characters');
    else if (!LABEL_VALUE.test(value)) invalid('metadata.labels', value, LABEL_VALUE_MESSAGE);
  }
  for (const key of Object.keys(meta.annotations))
    for (const p of qualifiedNameProblems(key.toLowerCase())) invalid('metadata.annotations', key, p);
  const size = Object.entries(meta.annotations).reduce((n, [k, v]) => n + k.length + v.length, 0);
  if (size > 256 * 1024)
    problems.push(`metadata.annotations: Too long: must have at most ${256 * 1024} bytes`);
  return problems;
}

/** `Workflow.argoproj.io "<name>" is invalid: <one>` or `... is invalid: [<a>, <b>]`. */
export function invalidMessage(name: string, problems: string[]): string {
  const list = problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`;
  return `Workflow.argoproj.io ${JSON.stringify(name)} is invalid: ${list}`;
}
