// The running Argo stack the kit submits to (npm run argo -- up): its folder, whether every process of it is
// up, and its kubectl as the admin.
import {
  alive,
  defaultStackDir,
  kubectlAsync,
  readState,
  type StackState,
} from '../../../argo-stack/src/stack.js';
import { SetupError } from '../run.js';

/** `--stack-dir`, else $ARGO_STACK_DIR, else the stack `npm run argo -- up` starts for the checkout run from. */
export function stackDir(given?: string): string {
  return given ?? defaultStackDir(process.cwd());
}

/** The stack in `dir` when all its processes run; a SetupError (exit 2, one line) otherwise. */
export function runningStack(dir: string): StackState {
  const state = readState(dir);
  if (!state || state.processes.length === 0 || !state.processes.every((p) => alive(p)))
    throw new SetupError(
      `--agent real: no Argo stack is up in ${dir} (start one with npm run argo -- up, or give --stack-dir)`,
    );
  return state;
}

export const kubectl = (state: StackState, args: string[], input?: string): Promise<string> =>
  kubectlAsync(state, args, input);

/** Objects applied as JSON, in one call; `namespace` for namespaced ones. */
export async function applyObjects(state: StackState, objects: object[], namespace?: string): Promise<void> {
  if (objects.length === 0) return;
  await kubectl(
    state,
    ['apply', ...(namespace ? ['-n', namespace] : []), '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
  );
}
