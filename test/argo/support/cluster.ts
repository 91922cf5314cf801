// What the real-Argo suites do with the stack: read the examples, submit workflows, wait for them to end.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { isWorkflowDone, parseDuration } from '@app/contract';
import type { WorkflowShape } from '@app/local-agent';
import {
  kubeClient,
  kubectl,
  kubectlAsync,
  readState,
  until,
  type StackState,
} from '../../../tools/argo-stack/src/stack.js';

export const repoRoot = resolve(import.meta.dirname, '../../..');

export function stack(): StackState {
  const state = readState(process.env.ARGO_STACK_DIR ?? '');
  if (!state)
    throw new Error(`no Argo stack in ${process.env.ARGO_STACK_DIR}: run through npm run test:argo`);
  return state;
}

/** The stack of a suite that needs the real node (the real-node*.argo-spec.ts suites, run with ARGO_NODE=real). */
export function realNodeStack(): StackState & { realNode: NonNullable<StackState['realNode']> } {
  const state = stack();
  if (!state.realNode)
    throw new Error(`the stack in ${state.dir} runs the pod runner: run this suite with ARGO_NODE=real`);
  return state as StackState & { realNode: NonNullable<StackState['realNode']> };
}

export { kubectl, kubectlAsync, kubeClient, until };

/**
 * The namespace prepared as the stack prepares one for workflows (prepareWorkflowNamespace), asynchronously,
 * without the workflows of an earlier run against the same stack.
 */
export async function prepareNamespace(state: StackState, namespace: string): Promise<void> {
  await kubectlAsync(state, ['create', 'namespace', namespace]).catch((err: Error) => {
    if (!/AlreadyExists/.test(err.message)) throw err;
  });
  await kubectlAsync(state, ['delete', 'workflows', '--all', '-n', namespace, '--wait=false']);
  await kubectlAsync(state, [
    'apply',
    '-n',
    namespace,
    '-f',
    join(state.repoRoot, 'tools/argo-stack/manifests/workflow-namespace.yaml'),
  ]);
}

/** A Kubernetes object of the manifests, with a workflow's metadata. */
export interface ManifestDoc {
  apiVersion: string;
  kind: string;
  metadata: WorkflowShape['metadata'];
  spec?: Record<string, unknown>;
}

/** Every document of every example of an app, with the file it came from. */
/** The longest poll interval of the examples as the suites run them (the stand-ins' jobs move on a state per poll). */
const EXAMPLE_POLL = '5s';

/** `pollInterval` values above EXAMPLE_POLL lowered to it, at any depth of the document. */
export function quickPolls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(quickPolls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'pollInterval' && typeof v === 'string' && parseDuration(v) > parseDuration(EXAMPLE_POLL)
        ? EXAMPLE_POLL
        : quickPolls(v),
    ]),
  );
}

/**
 * The documents of an app's examples. `quick`: as the suites that run every example use them, the plugins'
 * `pollInterval` at most 5s, so that a data job takes seconds, not minutes: the stand-ins' jobs move on one state
 * per poll, so the calls and outcomes are those of the 30s polls the examples show.
 */
export function examples(
  app: string,
  options: { quick?: boolean } = {},
): Array<{ file: string; doc: ManifestDoc }> {
  const dir = join(repoRoot, 'manifests', app, 'examples');
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(dir, f), 'utf8'))
        .map((d) => d.toJS() as ManifestDoc)
        .filter(Boolean)
        .map((doc) => (options.quick ? (quickPolls(doc) as ManifestDoc) : doc))
        .map((doc) => ({ file: `manifests/${app}/examples/${f}`, doc })),
    );
}

/** Creates the workflow; answers its name (generateName resolved). */
export async function create(state: StackState, namespace: string, doc: ManifestDoc): Promise<string> {
  const created = await kubeClient(state).call<ManifestDoc>(
    'POST',
    `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/workflows`,
    { ...doc, metadata: { ...doc.metadata, namespace } },
  );
  return created.metadata.name!;
}

export interface WorkflowOutcome {
  name: string;
  phase: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  nodes: Record<
    string,
    { displayName: string; type: string; phase: string; message?: string; outputs?: unknown }
  >;
}

/** Polls the workflow until it ends or `timeoutMs` passes (then answers its last state). */
export async function waitForWorkflow(
  state: StackState,
  namespace: string,
  name: string,
  timeoutMs: number,
): Promise<WorkflowOutcome> {
  const client = kubeClient(state);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wf = await client.get<{ status?: Partial<Omit<WorkflowOutcome, 'name'>> }>(
      `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/workflows/${name}`,
    );
    const outcome = {
      ...wf.status,
      name,
      phase: wf.status?.phase ?? 'Pending',
      nodes: wf.status?.nodes ?? {},
    };
    if (isWorkflowDone(outcome.phase) || Date.now() > deadline) return outcome;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

export interface ResourceAttributes {
  verb: string;
  resource: string;
  group?: string;
  subresource?: string;
  namespace: string;
}

/**
 * Whether the API server's RBAC lets the namespace's ServiceAccount do it: a SubjectAccessReview for the
 * account with the groups its token carries (what `kubectl auth can-i --as=system:serviceaccount:…` asks).
 */
export async function serviceAccountMay(
  state: StackState,
  account: { namespace: string; name: string },
  attributes: ResourceAttributes,
): Promise<boolean> {
  const review = await kubeClient(state).call<{ status: { allowed: boolean } }>(
    'POST',
    '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: `system:serviceaccount:${account.namespace}:${account.name}`,
        groups: [
          'system:serviceaccounts',
          `system:serviceaccounts:${account.namespace}`,
          'system:authenticated',
        ],
        resourceAttributes: attributes,
      },
    },
  );
  return review.status.allowed;
}

/** The first YAML block of a page of the docs after `marker` (indented under a list item or not). */
export function documentedObject(page: string, marker: string): ManifestDoc {
  const text = readFileSync(join(repoRoot, page), 'utf8');
  const at = text.indexOf(marker);
  const block = at < 0 ? undefined : /^( *)```yaml\n([\s\S]*?)^ *```/m.exec(text.slice(at));
  if (!block) throw new Error(`${page}: no YAML block after "${marker}"`);
  return parse(block[2].replace(new RegExp(`^${block[1]}`, 'gm'), '')) as ManifestDoc;
}
