// The approval table's rows for Mattermost, Discord, GitHub, Jira and ServiceNow: what two people (alice, bob)
// do to a request in each provider's stand-in (apps/chat-notifier/test/approval-worlds.ts), and what the gate
// must answer. Run through the local agent (approvals.e2e-spec.ts) and, the rows without `localOnly`, through
// the real Argo on both stacks (test/argo/approvals.argo-spec.ts).

export type ApprovalProvider = 'mattermost' | 'discord' | 'github' | 'jira' | 'servicenow';

/** What a provider's gates support beyond the basic gate (docs/approvals.md, "What each provider's gates support"). */
export interface ProviderSupport {
  /** Answers carry words (a thread reply, an issue comment): a comment, requireComment. */
  inWords: boolean;
  /** `rules` (their approvers as the provider's block writes them). */
  rules: boolean;
  /** The workflow's creator found by email: excludeCreator. */
  creatorLookup: boolean;
  /** A request closed without a decision (a ServiceNow change cancelled). */
  cancel: boolean;
}

export const PROVIDER_SUPPORT: Record<ApprovalProvider, ProviderSupport> = {
  mattermost: { inWords: true, rules: true, creatorLookup: true, cancel: false },
  discord: { inWords: false, rules: true, creatorLookup: false, cancel: false },
  github: { inWords: true, rules: true, creatorLookup: false, cancel: false },
  jira: { inWords: false, rules: false, creatorLookup: false, cancel: false },
  servicenow: { inWords: false, rules: false, creatorLookup: false, cancel: true },
};

export const PROVIDERS = Object.keys(PROVIDER_SUPPORT) as ApprovalProvider[];

/** What people do once the request has been read `after` times. */
/** The two approvers every world has. */
export type Person = 'alice' | 'bob';

export interface WorldStep {
  after: number;
  act: 'approve' | 'reject' | 'withdraw' | 'delete' | 'cancel';
  who?: Person;
  /** The answer in words: the keyword, then this reason (world.answer). */
  comment?: string;
}

export interface WorldCase {
  name: string;
  /** The support the row needs; the providers without it do not run it. */
  needs?: keyof ProviderSupport;
  /** Why the row runs only under the local agent (it stages what the real stack cannot, or its timing). */
  localOnly?: string;
  body?: Record<string, unknown>;
  approvers?: Person[];
  /** The body's `rules`, their approvers by person. */
  rules?: Array<{ approvers: Person[]; minApprovals?: number }>;
  /** Labels of the Workflow (the creator labels the Argo Server sets), for excludeCreator. */
  labels?: Record<string, string>;
  /** The creator whose answers the gate ignores: the request and the progress message say so. */
  excluded?: Person;
  steps: WorldStep[];
  restart?: boolean;
  /**
   * With the restart: a non-approver first copies the request (its marker too) and bob rejects the real one,
   * so a gate that adopted the copy would see no answer and time out.
   */
  forge?: boolean;
  /** Requests posted: 1 unless the gate fails before posting. */
  posts?: 0 | 1;
  phase: 'Succeeded' | 'Failed';
  decision: string;
  /** The `approvers` output: who decided (in any order: Discord's reactions carry no time). */
  decidedBy?: Person[];
  /** The `ruleApprovers` output: who approved under each rule (each rule's people in any order). */
  ruleApprovers?: Person[][];
  /** The `comment` output; '' when absent. */
  comment?: string;
  /** false: the request shows no decision line (a cancelled change is final in ServiceNow; no work note). */
  decisionLine?: false;
  message: RegExp;
}

/** The body's creator under Argo's agent pods, which send no labels: Argo fills it from the Workflow's label. */
const CREATOR_FROM_LABELS = '{{workflow.labels.workflows.argoproj.io/creator-email}}';
const EXCLUDE_CREATOR = { excludeCreator: true, creator: CREATOR_FROM_LABELS };

/** The outcome of a case that alice approves. */
const aliceApproves: Pick<WorldCase, 'phase' | 'decision' | 'decidedBy' | 'message'> = {
  phase: 'Succeeded',
  decision: 'approved',
  decidedBy: ['alice'],
  message: /^approved by \S+ at /,
};

export const worldCases: WorldCase[] = [
  {
    name: 'approve (a Jira transition to the approved status; a ServiceNow change approved)',
    steps: [{ after: 2, act: 'approve', who: 'alice' }],
    ...aliceApproves,
  },
  {
    name: 'reject (a Jira transition to the rejected status; a ServiceNow change rejected)',
    steps: [{ after: 2, act: 'reject', who: 'bob' }],
    phase: 'Failed',
    decision: 'rejected',
    decidedBy: ['bob'],
    message: /^rejected by \S+ at /,
  },
  {
    name: 'a request closed without a decision (a cancelled change) fails the gate, decision cancelled',
    needs: 'cancel',
    steps: [{ after: 2, act: 'cancel' }],
    phase: 'Failed',
    decision: 'cancelled',
    decisionLine: false,
    message: /^the approval request was closed without a decision \(change CHG\d+ was cancelled\)/,
  },
  {
    name: "a non-approver's answer is ignored",
    approvers: ['alice'],
    steps: [
      { after: 1, act: 'approve', who: 'bob' },
      { after: 3, act: 'approve', who: 'alice' },
    ],
    ...aliceApproves,
  },
  {
    name: 'a withdrawn answer no longer counts (minApprovals 2)',
    localOnly: 'its 3 s timeout must outlast three polls, which the real stack makes 10 s apart',
    body: { minApprovals: 2, timeout: '3s' },
    steps: [
      { after: 1, act: 'approve', who: 'alice' },
      { after: 2, act: 'withdraw', who: 'alice' },
      { after: 3, act: 'approve', who: 'bob' },
    ],
    phase: 'Failed',
    decision: 'timeout',
    message: /^no decision within 3s; the gate failed/,
  },
  {
    name: 'reject with a comment: the reason is the comment output',
    needs: 'inWords',
    steps: [{ after: 2, act: 'reject', who: 'bob', comment: 'not on Friday' }],
    phase: 'Failed',
    decision: 'rejected',
    decidedBy: ['bob'],
    comment: 'not on Friday',
    message: /^rejected by \S+ at /,
  },
  {
    name: 'requireComment: a bare "approve" is ignored; an approval with a reason decides',
    needs: 'inWords',
    body: { requireComment: true },
    steps: [
      { after: 1, act: 'approve', who: 'alice' },
      { after: 3, act: 'approve', who: 'bob', comment: 'ship it' },
    ],
    phase: 'Succeeded',
    decision: 'approved',
    decidedBy: ['bob'],
    comment: 'ship it',
    message: /^approved by \S+ at /,
  },
  ...(
    [
      ['bob, then alice', ['bob', 'alice']],
      ['alice, then bob', ['alice', 'bob']],
    ] as const
  ).map(([order, people]): WorldCase => ({
    name: `two rules are met in either order: ${order}`,
    needs: 'rules',
    rules: [{ approvers: ['alice'] }, { approvers: ['bob'] }],
    steps: people.map((who, i) => ({ after: 1 + 2 * i, act: 'approve', who })),
    phase: 'Succeeded',
    decision: 'approved',
    decidedBy: [...people],
    ruleApprovers: [['alice'], ['bob']],
    message: /^approved by \S+, \S+ at /,
  })),
  {
    name: 'one person listed in two rules counts once in each: a second approval (2 of 2) is still needed',
    needs: 'rules',
    rules: [{ approvers: ['alice', 'bob'], minApprovals: 2 }, { approvers: ['alice'] }],
    steps: [
      { after: 1, act: 'approve', who: 'alice' },
      { after: 3, act: 'approve', who: 'bob' },
    ],
    phase: 'Succeeded',
    decision: 'approved',
    decidedBy: ['alice', 'bob'],
    ruleApprovers: [['alice', 'bob'], ['alice']],
    message: /^approved by \S+, \S+ at /,
  },
  {
    name: "excludeCreator: the creator's approval is ignored, then another approver passes the gate",
    needs: 'creatorLookup',
    body: EXCLUDE_CREATOR,
    labels: { 'workflows.argoproj.io/creator-email': 'alice.at.example.com' },
    excluded: 'alice',
    steps: [
      { after: 1, act: 'approve', who: 'alice' },
      { after: 3, act: 'approve', who: 'bob' },
    ],
    phase: 'Succeeded',
    decision: 'approved',
    decidedBy: ['bob'],
    message: /^approved by \S+ at /,
  },
  {
    name: 'excludeCreator: the creator has no account the gate can find: it fails closed, posting nothing',
    needs: 'creatorLookup',
    body: EXCLUDE_CREATOR,
    labels: { 'workflows.argoproj.io/creator-email': 'nobody.at.example.com' },
    steps: [],
    posts: 0,
    phase: 'Failed',
    decision: 'creator-unknown',
    message: /^excludeCreator: the workflow's creator \(nobody@example\.com\) has no account here/,
  },
  {
    name: 'a deleted request fails the gate safely',
    steps: [{ after: 2, act: 'delete' }],
    phase: 'Failed',
    decision: 'deleted',
    message: /^the approval request was deleted before a decision; failing safely: /,
  },
  {
    name: 'the sidecar restarts between the post (the ticket created) and the decision: the request is found again, not reposted',
    steps: [{ after: 2, act: 'approve', who: 'alice' }],
    restart: true,
    ...aliceApproves,
  },
  {
    name: "a non-approver's copy of the request, posted before a restart, is not adopted: bob's reject on the real one decides",
    localOnly: 'the copy is posted while the sidecar is down, which the local agent stages',
    body: { timeout: '3s' },
    steps: [],
    restart: true,
    forge: true,
    phase: 'Failed',
    decision: 'rejected',
    decidedBy: ['bob'],
    message: /^rejected by \S+ at /,
  },
];

/** The rows a provider's gates run: those whose support it has. */
export function providerRows(provider: ApprovalProvider): WorldCase[] {
  return worldCases.filter((c) => c.needs === undefined || PROVIDER_SUPPORT[provider][c.needs]);
}

/** The `approvers` output (or the deciders of `decisions`), sorted. */
export function sortedIds(ids: string | undefined): string {
  return (ids ?? '')
    .split(',')
    .filter((id) => id !== '')
    .sort()
    .join(',');
}

/** The `ruleApprovers` output, each rule's approvers sorted (their order within a rule is not the table's). */
export function byRule(ruleApprovers: string | undefined): string[][] {
  return (ruleApprovers ?? '').split(';').map((rule) =>
    rule
      .split(',')
      .filter((id) => id !== '')
      .sort(),
  );
}

/** The line a decided request shows under its text (that of a timeout too). */
export const DECISION_LINE = /(Approved|Rejected) by .* at |No decision within /;
