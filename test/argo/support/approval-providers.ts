// The approval table's rows of Mattermost, Discord, GitHub, Jira and ServiceNow
// (apps/chat-notifier/test/approval-provider-table.ts) as the real-Argo suite runs them: one stand-in per
// provider, each row in a place of its own (a channel, a repository, a project; a ServiceNow change's text),
// its steps done to the first request of its place once that request has been read often enough.
import {
  byRule,
  decidersOf,
  DECISION_LINE,
  gateWorkflow,
  PROVIDERS,
  providerRows,
  sortedIds,
  type ApprovalProvider,
  type WorldCase,
} from '../../../apps/chat-notifier/test/approval-table.js';
import {
  expectedByRule,
  perform,
  rulesOf,
  startApprovalWorld,
  type ApprovalWorld,
} from '../../../apps/chat-notifier/test/approval-worlds.js';
import type { ManifestDoc, WorkflowOutcome } from './cluster.js';

/**
 * Each provider's budget: a dozen gates of one sidecar (or one shared agent) on an upstream come round every
 * 10 s at 600 calls a minute (requeue = 60 s × N × C / B, C up to 5), the least a gate waits between polls.
 */
export const PROVIDER_BUDGETS = {
  MATTERMOST_APPROVAL_CALLS_PER_MINUTE: '600',
  DISCORD_APPROVAL_CALLS_PER_MINUTE: '600',
  APPROVALS_GITHUB_CALLS_PER_MINUTE: '600',
  APPROVALS_JIRA_CALLS_PER_MINUTE: '600',
  APPROVALS_SERVICENOW_CALLS_PER_MINUTE: '600',
};

export interface ProviderRow {
  provider: ApprovalProvider;
  row: WorldCase;
  world: ApprovalWorld;
  place: number;
  /** How many of the row's steps were done. */
  given: number;
}

export interface ProviderWorlds {
  rows: ProviderRow[];
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The stand-ins (where `setStandInHost` says), each row's place and its scripted steps. */
export async function startProviderWorlds(): Promise<ProviderWorlds> {
  const rows: ProviderRow[] = [];
  const worlds: ApprovalWorld[] = [];
  for (const provider of PROVIDERS) {
    const table = providerRows(provider).filter((row) => row.localOnly === undefined);
    const world = await startApprovalWorld(provider, table.length);
    worlds.push(world);
    table.forEach((row, place) => {
      const run: ProviderRow = { provider, row, world, place, given: 0 };
      for (const step of row.steps) {
        let done = false;
        // Once: a deleted request's record, in the same place, is read too.
        world.script.each(step.after, (request) => {
          if (done || world.placeOf(request) !== place) return;
          done = true;
          perform(world, step, request);
          run.given++;
        });
      }
      rows.push(run);
    });
  }
  return {
    rows,
    env: Object.assign({}, PROVIDER_BUDGETS, ...worlds.map((w) => w.env)) as Record<string, string>,
    close: async () => {
      await Promise.all(worlds.map((w) => w.close()));
    },
  };
}

export function providerWorkflow({ provider, row, world, place }: ProviderRow): ManifestDoc {
  return gateWorkflow(
    {
      [provider]: world.block(
        (row.approvers ?? ['alice', 'bob']).map((p) => world.people[p].ref),
        place,
      ),
      ...(row.rules && { rules: rulesOf(row, world) }),
      ...row.body,
    },
    false,
    row.labels,
  ) as ManifestDoc;
}

/** What a row must show, as one object, so that a difference names the row and the field. */
export function expectedOf({ row, world }: ProviderRow): Record<string, unknown> {
  const decidedBy = sortedIds((row.decidedBy ?? []).map((p) => world.people[p].id).join(','));
  return {
    phase: row.phase,
    decision: row.decision,
    approvers: decidedBy,
    deciders: decidedBy,
    comment: row.comment ?? '',
    ...(row.ruleApprovers && { ruleApprovers: expectedByRule(row.ruleApprovers, world) }),
    message: true,
    url: true,
    decidedAt: true,
    posted: row.posts ?? 1,
    shown: row.posts === 0 ? 'nothing' : 'the text once, then the decision',
    ...(row.excluded && { creatorShown: true }),
    answersGiven: row.steps.length,
    ...(row.restart && { foundAgain: true }),
  };
}

/** What the row showed, in the shape of `expectedOf`. */
export function observedOf(
  { row, world, place, given }: ProviderRow,
  gate: WorkflowOutcome['nodes'][string] | undefined,
  foundAgain: () => boolean,
): Record<string, unknown> {
  const out = Object.fromEntries(
    (
      (gate?.outputs as { parameters?: Array<{ name: string; value?: string }> } | undefined)?.parameters ??
      []
    ).map((p) => [p.name, p.value]),
  );
  const shown = world.shown(place);
  const deleted = row.decision === 'deleted';
  const decided =
    (deleted ? /:wastebasket: Deleted before a decision: /.test(shown) : DECISION_LINE.test(shown)) ||
    row.decisionLine === false;
  const textOnce = shown.split('Deploy 1.4.2 to prod?').length === (deleted ? 1 : 2);
  return {
    phase: gate?.phase,
    decision: out.decision,
    approvers: sortedIds(out.approvers),
    deciders: sortedIds(decidersOf(out.decisions)),
    comment: out.comment,
    ...(row.ruleApprovers && { ruleApprovers: byRule(out.ruleApprovers) }),
    message: row.message.test(gate?.message ?? ''),
    url: row.posts === 0 ? out.url === '' : world.url.test(out.url ?? ''),
    decidedAt: Number.isFinite(Date.parse(out.decidedAt ?? '')),
    // A deleted request's record is the gate's second post.
    posted: world.posted(place) - (deleted ? 1 : 0),
    shown:
      shown === '' ? 'nothing' : textOnce && decided ? 'the text once, then the decision' : `other: ${shown}`,
    ...(row.excluded && {
      creatorShown: shown.includes(
        `The workflow's creator (${world.people[row.excluded].id}) cannot approve it.`,
      ),
    }),
    answersGiven: given,
    ...(row.restart && { foundAgain: foundAgain() }),
  };
}
