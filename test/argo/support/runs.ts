// Submitting workflows to the stack and following them to their end, each reported in one line.
import type { StackState } from '../../../tools/argo-stack/src/stack.js';
import { create, kubeClient, waitForWorkflow, type ManifestDoc, type WorkflowOutcome } from './cluster.js';
import { reportWorkflow, type WorkflowLine } from './report.js';

/** The phase `npm run demo` expects of an example (its annotation, default Succeeded). */
export const EXPECT_ANNOTATION = 'executor-plugins.dev/demo-expect';
export const BINDING_LABEL = 'workflows.argoproj.io/workflow-event-binding';

/** How long one workflow may take before the suite gives up on it. */
const WORKFLOW_TIMEOUT_MS = 6 * 60_000;

export interface Submission {
  what: string;
  doc: ManifestDoc;
}

export interface Run extends WorkflowLine {
  name: string;
  outcome: WorkflowOutcome;
}

export function expectedPhase(doc: ManifestDoc): string {
  return doc.metadata.annotations?.[EXPECT_ANNOTATION] ?? 'Succeeded';
}

async function follow(
  state: StackState,
  namespace: string,
  pass: string,
  what: string,
  name: string,
  expected: string,
): Promise<Run> {
  const outcome = await waitForWorkflow(state, namespace, name, WORKFLOW_TIMEOUT_MS);
  const line: WorkflowLine = {
    what,
    pass,
    phase: outcome.phase,
    expected,
    seconds: workflowSeconds(outcome),
    message: failedNodes(outcome) ?? outcome.message,
  };
  reportWorkflow(line);
  return { ...line, name, outcome };
}

/** Creates the workflow and waits for its end; the line is printed as soon as it ends. */
export async function runWorkflow(
  state: StackState,
  namespace: string,
  pass: string,
  { what, doc }: Submission,
): Promise<Run> {
  return followWorkflow(state, namespace, pass, { what, doc }, await create(state, namespace, doc));
}

/** Waits for the end of the workflow created from the submission as `name`; the line is printed as it ends. */
export function followWorkflow(
  state: StackState,
  namespace: string,
  pass: string,
  { what, doc }: Submission,
  name: string,
): Promise<Run> {
  return follow(state, namespace, pass, what, name, expectedPhase(doc));
}

/** The workflows a WorkflowEventBinding submitted in the namespace, each followed to its end. */
export async function runBindingSubmissions(
  state: StackState,
  namespace: string,
  pass: string,
  what: (wf: ManifestDoc) => string,
): Promise<Run[]> {
  const list = await kubeClient(state).get<{ items: ManifestDoc[] }>(
    `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/workflows?labelSelector=${encodeURIComponent(BINDING_LABEL)}`,
  );
  return Promise.all(
    list.items.map((wf) => follow(state, namespace, pass, what(wf), wf.metadata.name!, 'Succeeded')),
  );
}

/** The workflow's own run time (the controller's start and end), 0 if it never started. */
export function workflowSeconds({ startedAt, finishedAt }: WorkflowOutcome): number {
  if (!startedAt) return 0;
  return ((finishedAt ? Date.parse(finishedAt) : Date.now()) - Date.parse(startedAt)) / 1000;
}

/** What the failed steps say (Pod and Plugin nodes; the workflow's own message only names a child). */
function failedNodes(outcome: WorkflowOutcome): string | undefined {
  const failed = Object.values(outcome.nodes).filter(
    (n) => ['Pod', 'Plugin'].includes(n.type) && ['Failed', 'Error'].includes(n.phase) && n.message,
  );
  return failed.map((n) => `${n.displayName}: ${n.message}`).join('; ') || undefined;
}
