// The Slack approval gate's table: what the people in the channel do, and what the gate must answer. Run
// through the local agent (approvals.e2e-spec.ts) and through the real Argo stack, with Argo's agent pods and
// with the shared agent (test/argo/approvals.argo-spec.ts). The other providers' rows: approval-provider-table.ts.
import { formatDuration, parseDuration } from '@app/contract';
import type { WorkflowShape } from '@app/local-agent';
import type { ApproverStep } from '../stand-ins/slack/slack-api.stand-in.js';

export * from './approval-provider-table.js';

export const ALICE = 'U0ALICE001';
export const BOB = 'U0BOB00001';
/** A bot user of the workspace, listed as an approver in one row: a bot never counts. */
export const DEPLOY_BOT = 'U0DEPLOYBOT';
export const GATE_OUTPUTS = ['decision', 'approvers', 'decidedAt', 'url', 'comment', 'decisions'];

export interface ApprovalRow {
  name: string;
  /** Fields of the approve body besides the Slack block; the block's approvers default to [alice, bob]. */
  body?: Record<string, unknown>;
  /** Labels of the Workflow (the creator labels the Argo Server sets from the submitter's token). */
  labels?: Record<string, string>;
  /** Requests posted: 1 unless the gate fails before posting; 2 with the record of a deleted request. */
  posts?: 0 | 1 | 2;
  /** With rules: the `ruleApprovers` output (who approved under each rule, `;` between rules). */
  ruleApprovers?: string;
  approvers?: string[];
  /** What people do, by the poll of the request (`botUserId`: the notifier's own bot user). */
  script: (botUserId: string) => ApproverStep[];
  /**
   * Besides the people: `rate-limited`, reactions.get answers 429 with a 3 s Retry-After during polling;
   * `restart`, the plugin (its sidecar, or the agent hosting it) restarts after the request is posted.
   */
  event?: 'rate-limited' | 'restart';
  /** The one agent the row runs under (the real shared agent, which reads the Workflow's labels itself). */
  only?: 'shared agent';
  phase: 'Succeeded' | 'Failed';
  decision: string;
  /** The `approvers` output: who decided (the `decisions` output has one line for each, in this order). */
  decidedBy: string;
  /** The `comment` output: the deciders' reasons; '' when none wrote one. */
  comment?: string;
  /** A line of the `decisions` output, beyond who decided: its vote, time and comment. */
  decision0?: RegExp;
  /** A message the node shows while it waits (checked by the local agent, which sees every reply). */
  progress?: RegExp;
  /** The request as concluded; undefined: it is gone. */
  concluded?: RegExp;
  message: RegExp;
}

export const react = (afterPolls: number, user: string, name = 'white_check_mark'): ApproverStep => ({
  afterPolls,
  user,
  react: name,
});

/** The body's creator under Argo's agent pods, which send no labels: Argo fills it from the Workflow's label. */
export const CREATOR_FROM_LABELS = '{{workflow.labels.workflows.argoproj.io/creator-email}}';
/** The creator-email label of alice (alice@example.com in the demo workspace), as the Argo Server writes it. */
export const ALICE_CREATOR = { 'workflows.argoproj.io/creator-email': 'alice.at.example.com' };

/** The outcome of a row that alice approves. */
export const approvedByAlice = {
  phase: 'Succeeded',
  decision: 'approved',
  decidedBy: ALICE,
  concluded: /Approved by <@U0ALICE001> at/,
  message: /^approved by U0ALICE001 /,
} as const;

/**
 * The rows. `withdrawTimeout` is the timeout of the withdrawn-answer row, which must outlast three polls of the
 * request (the real stack polls every 10 s at least; the local agent scales its waits).
 */
export function slackApprovalRows(timing: { withdrawTimeout: string }): ApprovalRow[] {
  const withdrawn = timing.withdrawTimeout;
  // As the gate writes it (75s is 1m15s).
  const within = formatDuration(parseDuration(withdrawn));
  return [
    {
      name: 'approve: a listed person reacts ✅',
      script: () => [react(2, ALICE)],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: ALICE,
      concluded: /\n\n:white_check_mark: Approved by <@U0ALICE001> at \d{4}-/,
      message: /^approved by U0ALICE001 at .*: https:\/\/argo-demo\.slack\.com\/archives\//,
    },
    {
      name: 'approve: a listed person replies "approve" in the thread',
      script: () => [{ afterPolls: 2, user: BOB, reply: 'Approve, tests are green' }],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: BOB,
      comment: 'tests are green',
      concluded: /Approved by <@U0BOB00001>/,
      message: /^approved by U0BOB00001 /,
    },
    {
      name: 'reject: one listed person reacts ❌ after another approved (minApprovals 2)',
      body: { minApprovals: 2 },
      script: () => [react(1, ALICE), react(2, BOB, 'x')],
      phase: 'Failed',
      decision: 'rejected',
      decidedBy: BOB,
      concluded: /:x: Rejected by <@U0BOB00001>/,
      message: /^rejected by U0BOB00001 /,
    },
    {
      name: 'reject with a comment: "reject: not on Friday" is the comment output, with the answer and its time',
      script: () => [{ afterPolls: 2, user: BOB, reply: 'reject: not on Friday' }],
      phase: 'Failed',
      decision: 'rejected',
      decidedBy: BOB,
      comment: 'not on Friday',
      decision0:
        /^\{"user":"U0BOB00001","vote":"reject","at":"\d{4}-\d\d-\d\dT[\d:.]+Z","comment":"not on Friday"\}$/,
      concluded: /:x: Rejected by <@U0BOB00001> at \S+\n- <@U0BOB00001> reject at \S+Z: not on Friday$/,
      message: /^rejected by U0BOB00001 /,
    },
    {
      name: "a comment is read as written: Slack's &lt; &gt; &amp; in a reply are unescaped, and escaped again in the decision line",
      script: () => [{ afterPolls: 2, user: BOB, reply: 'reject: risk > gain & QA < 100%' }],
      phase: 'Failed',
      decision: 'rejected',
      decidedBy: BOB,
      comment: 'risk > gain & QA < 100%',
      concluded: /- <@U0BOB00001> reject at \S+Z: risk &gt; gain &amp; QA &lt; 100%$/,
      message: /^rejected by U0BOB00001 /,
    },
    {
      name: 'requireComment: a bare "approve" and a reaction are ignored; an approval with a reason decides',
      body: { requireComment: true },
      script: () => [
        react(1, ALICE),
        { afterPolls: 1, user: ALICE, reply: 'approve' },
        { afterPolls: 3, user: BOB, reply: 'approve: ship it' },
      ],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: BOB,
      comment: 'ship it',
      progress:
        /^waiting for approval: 0 of 1 approvals \(not counted: U0ALICE001, no comment after the keyword; requireComment\)/,
      concluded: /Approved by <@U0BOB00001> at \S+\n- <@U0BOB00001> approve at \S+Z: ship it$/,
      message: /^approved by U0BOB00001 /,
    },
    {
      name: 'timeout: nobody answers (onTimeout: fail)',
      body: { timeout: '2s' },
      script: () => [],
      phase: 'Failed',
      decision: 'timeout',
      decidedBy: '',
      concluded: /:hourglass: No decision within 2s; the gate failed/,
      message: /^no decision within 2s; the gate failed: https:/,
    },
    {
      name: 'timeout with onTimeout: approve',
      body: { timeout: '2s', onTimeout: 'approve' },
      script: () => [],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: '',
      concluded: /approved by onTimeout/,
      message: /^no decision within 2s; approved by onTimeout: /,
    },
    {
      name: 'minApprovals 2: one person reacting twice (and replying) is one approval; a second person decides',
      body: { minApprovals: 2 },
      script: () => [
        react(1, ALICE),
        react(1, ALICE, '+1::skin-tone-3'),
        { afterPolls: 2, user: ALICE, reply: 'approve' },
        react(4, BOB, 'heavy_check_mark'),
      ],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: `${ALICE},${BOB}`,
      concluded: /Approved by <@U0ALICE001>, <@U0BOB00001>/,
      message: /^approved by U0ALICE001, U0BOB00001 /,
    },
    {
      name: "a non-approver's reaction is ignored",
      approvers: [ALICE],
      script: () => [react(1, BOB), react(3, ALICE)],
      ...approvedByAlice,
    },
    {
      name: "a bot's reaction and reply (even a listed bot user) and the request's own author are ignored",
      approvers: [ALICE, DEPLOY_BOT],
      script: (botUserId) => [
        react(1, DEPLOY_BOT),
        react(1, botUserId),
        { afterPolls: 1, user: ALICE, reply: 'approve', bot: true },
        react(3, ALICE),
      ],
      ...approvedByAlice,
    },
    {
      name: 'a withdrawn reaction withdraws the approval',
      body: { minApprovals: 2, timeout: withdrawn },
      script: () => [
        react(1, ALICE),
        { afterPolls: 2, user: ALICE, unreact: 'white_check_mark' },
        react(3, BOB),
      ],
      phase: 'Failed',
      decision: 'timeout',
      decidedBy: '',
      concluded: new RegExp(`No decision within ${within}`),
      message: new RegExp(`^no decision within ${within}; the gate failed`),
    },
    {
      name: 'a deleted request fails the gate safely',
      script: () => [react(1, ALICE, 'eyes'), { afterPolls: 2, delete: true }],
      phase: 'Failed',
      decision: 'deleted',
      decidedBy: '',
      // A record goes in its place (what a restarted gate reads back): posted, then concluded.
      posts: 2,
      concluded:
        /^The approval request of this step was deleted before a decision: .*\n\n:wastebasket: Deleted before a decision: .*; the gate failed safely at /,
      message: /^the approval request was deleted before a decision; failing safely: https:/,
    },
    {
      name: 'a request edited by someone else fails the gate safely (never approves)',
      script: () => [{ afterPolls: 2, user: ALICE, edit: 'Deploy approved already, go' }, react(2, ALICE)],
      phase: 'Failed',
      decision: 'tampered',
      decidedBy: '',
      concluded: /Changed by someone else; the gate failed safely/,
      message: /^the approval request was changed by someone else \(edited by U0ALICE001\)/,
    },
    {
      name: 'a user-group approver (@release-managers) counts through its members',
      approvers: ['@release-managers'],
      script: () => [react(1, BOB), react(3, ALICE)],
      ...approvedByAlice,
    },
    {
      name: '429 during polling: the gate waits out Retry-After (all gates of the workspace pause), then decides',
      script: () => [react(2, ALICE)],
      event: 'rate-limited',
      ...approvedByAlice,
    },
    {
      name: 'the plugin restarts between the post and the decision: the request is found again, not reposted',
      script: () => [react(2, ALICE)],
      event: 'restart',
      ...approvedByAlice,
    },
    {
      name: "excludeCreator: the creator's approval is ignored, then another approver passes the gate",
      body: { excludeCreator: true, creator: CREATOR_FROM_LABELS },
      labels: ALICE_CREATOR,
      script: () => [react(1, ALICE), react(2, BOB)],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: BOB,
      concluded: /Approved by <@U0BOB00001> at/,
      message: /^approved by U0BOB00001 /,
    },
    {
      name: 'excludeCreator: the creator has no account the gate can find: it fails closed, posting nothing',
      body: { excludeCreator: true, creator: CREATOR_FROM_LABELS },
      labels: { 'workflows.argoproj.io/creator-email': 'nobody.at.example.com' },
      script: () => [],
      posts: 0,
      phase: 'Failed',
      decision: 'creator-unknown',
      decidedBy: '',
      message: /^excludeCreator: the workflow's creator \(nobody@example\.com\) has no account here/,
    },
    {
      // Only under the shared agent: Argo's agent pods (and the local agent) send no labels, so there the body's
      // creator is the only one there is, and bob's answers would be the ones ignored.
      name: "excludeCreator under the shared agent: a false creator in the body (bob) does not count; alice, the Workflow's creator, is ignored and bob decides",
      only: 'shared agent',
      body: { excludeCreator: true, creator: 'bob@example.com' },
      labels: ALICE_CREATOR,
      script: () => [react(1, ALICE), react(3, BOB)],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: BOB,
      concluded:
        /The workflow's creator \(<@U0ALICE001>\) cannot approve it\.[\s\S]*Approved by <@U0BOB00001> at/,
      message: /^approved by U0BOB00001 /,
    },
    ...(['alice first', 'bob first'] as const).map((order): ApprovalRow => ({
      name: `rules: two rules, each met by its own approver (${order})`,
      body: { rules: [{ approvers: [ALICE] }, { approvers: [BOB] }] },
      script: () =>
        order === 'alice first' ? [react(1, ALICE), react(2, BOB)] : [react(1, BOB), react(2, ALICE)],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: order === 'alice first' ? `${ALICE},${BOB}` : `${BOB},${ALICE}`,
      ruleApprovers: `${ALICE};${BOB}`,
      concluded: /Approved by .* at \S+(\n- .+){2}\nBy rule: <@U0ALICE001> \| <@U0BOB00001>$/,
      message: /^approved by U0/,
    })),
    {
      name: 'rules: one person listed in two rules counts once in each: a second approval (2 of 2) is still needed',
      body: { rules: [{ approvers: [ALICE, BOB], minApprovals: 2 }, { approvers: [ALICE] }] },
      script: () => [react(1, ALICE), { afterPolls: 2, user: ALICE, reply: 'approve' }, react(3, BOB)],
      phase: 'Succeeded',
      decision: 'approved',
      decidedBy: `${ALICE},${BOB}`,
      ruleApprovers: `${ALICE},${BOB};${ALICE}`,
      concluded: /By rule: <@U0ALICE001>, <@U0BOB00001> \| <@U0ALICE001>$/,
      message: /^approved by U0ALICE001, U0BOB00001 /,
    },
  ];
}

/** A workflow with one approval gate (or, `underNotify`, the gate's body written as a block of `notify`). */
export function gateWorkflow(
  approve: Record<string, unknown>,
  underNotify = false,
  labels?: Record<string, string>,
): WorkflowShape {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'approval-', ...(labels && { labels }) },
    spec: {
      entrypoint: 'main',
      templates: [
        { name: 'main', steps: [[{ name: 'gate', template: 'gate' }]] },
        {
          name: 'gate',
          outputs: {
            parameters: [...GATE_OUTPUTS, ...(approve.rules ? ['ruleApprovers'] : [])].map((name) => ({
              name,
              valueFrom: { supplied: {} },
            })),
          },
          plugin: underNotify ? { notify: { approve } } : { approve },
        },
      ],
    },
  };
}

/** The users of the `decisions` output's lines, comma-separated as the `approvers` output is. */
export function decidersOf(decisions: string | undefined): string {
  return (decisions ?? '')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { user: string }).user)
    .join(',');
}

/** The request as the gate's first post wrote it: the text, then who must answer. */
export const REQUEST_TEXT = /^Deploy 1\.4\.2 to prod\?\n\nNeeds (one approval|2 approvals) from /;
/** The `url` output: the request's permalink in the demo workspace. */
export const REQUEST_URL = /^https:\/\/argo-demo\.slack\.com\/archives\/C\w+\/p\d+$/;
