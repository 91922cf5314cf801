// The Workflow's creator, as the Argo Server labels it from the submitter's token or SSO: passed to the plugins
// by the shared agent itself, so an approval gate's body cannot name someone else as the creator.

export const CREATOR_LABELS = [
  'workflows.argoproj.io/creator',
  'workflows.argoproj.io/creator-email',
  'workflows.argoproj.io/creator-preferred-username',
] as const;

export interface WorkflowLabels {
  metadata?: { uid?: string; labels?: Record<string, string> };
}

/** The creator labels of `workflow` when it is the workflow `workflowUid` ({} otherwise, or without any). */
export function creatorLabels(workflow: WorkflowLabels, workflowUid: string): Record<string, string> {
  if (workflow.metadata?.uid !== workflowUid) return {};
  const labels = workflow.metadata.labels ?? {};
  return Object.fromEntries(
    CREATOR_LABELS.filter((name) => typeof labels[name] === 'string').map((name) => [name, labels[name]!]),
  );
}
