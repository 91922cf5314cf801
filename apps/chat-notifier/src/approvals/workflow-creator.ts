// Who submitted the workflow, as the Argo Server labels it from the submitter's token or SSO
// (workflows.argoproj.io/creator, creator-email, creator-preferred-username). With `excludeCreator`, that
// person's answers never count.

export const CREATOR_LABEL = 'workflows.argoproj.io/creator';
export const CREATOR_EMAIL_LABEL = 'workflows.argoproj.io/creator-email';
export const CREATOR_USERNAME_LABEL = 'workflows.argoproj.io/creator-preferred-username';

/** The creator as far as it is known: the token's subject, email and preferred username. */
export interface WorkflowCreator {
  subject?: string;
  email?: string;
  username?: string;
}

/** An email as a label holds it: the Argo Server writes `@` as `.at.` (alice.at.example.com). */
function emailOf(value: string): string {
  if (value.includes('@')) return value;
  const at = value.lastIndexOf('.at.');
  return at > 0 ? `${value.slice(0, at)}@${value.slice(at + 4)}` : value;
}

/**
 * The workflow's creator. When the agent sent the Workflow's labels (the shared agent reads them from the
 * Workflow itself) only they count, so a body cannot name someone else; otherwise (Argo's agent sends none)
 * the body's `creator`, an email or a username (a WorkflowTemplate fills it with
 * `{{workflow.labels.workflows.argoproj.io/creator-email}}`). Undefined when neither says.
 */
export function workflowCreator(
  labels: Readonly<Record<string, string>> | undefined,
  bodyCreator: string | undefined,
): WorkflowCreator | undefined {
  if (labels) {
    const creator: WorkflowCreator = {
      ...(labels[CREATOR_LABEL] && { subject: labels[CREATOR_LABEL] }),
      ...(labels[CREATOR_EMAIL_LABEL] && { email: emailOf(labels[CREATOR_EMAIL_LABEL]) }),
      ...(labels[CREATOR_USERNAME_LABEL] && { username: labels[CREATOR_USERNAME_LABEL] }),
    };
    return Object.keys(creator).length > 0 ? creator : undefined;
  }
  if (!bodyCreator) return undefined;
  const email = emailOf(bodyCreator);
  return email.includes('@') ? { email } : { username: bodyCreator };
}

/** The creator in a message: what is known of them, never more. */
export function creatorName(creator: WorkflowCreator): string {
  return creator.email ?? creator.username ?? creator.subject ?? 'unknown';
}
