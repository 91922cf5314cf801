// After a sidecar restart (or a lost reply) the same execution sends its event again. When a binding names
// its workflow after x-argo-plugin-key, the server (sync mode) refuses the second submission with
// AlreadyExists; this recognises that case so the node can succeed instead of failing.

// A workflow made from a template has a generateName too, so the API server words the clash as a generated-name
// conflict: `…" already exists, the server was not able to generate a unique name for the object`.
const ALREADY_EXISTS =
  /failed to create workflow: workflows\.argoproj\.io "([^"]+)" already exists(?:, the server was not able to generate a unique name for the object)?/g;
/** Shortest run of the key that counts as "named after this execution" (48 bits). */
const MIN_KEY_RUN = 12;

function carriesKey(name: string, key: string): boolean {
  for (const run of name.match(/[0-9a-f]+/g) ?? [])
    if (run.length >= MIN_KEY_RUN && key.includes(run)) return true;
  return false;
}

/**
 * The workflow names when EVERY error of a sync-mode 500 (`failed to dispatch event: [...]`) is an
 * AlreadyExists of a workflow named with this execution key; otherwise undefined.
 */
export function workflowsAlreadyCreated(message: string, key: string): string[] | undefined {
  const m = /^failed to dispatch event: \[([\s\S]*)\]$/.exec(message.trim());
  if (!m) return undefined;
  const names: string[] = [];
  const rest = m[1]!.replace(ALREADY_EXISTS, (whole, name: string) => {
    if (!carriesKey(name, key)) return whole;
    names.push(name);
    return '';
  });
  return names.length > 0 && rest.trim() === '' ? names : undefined;
}
