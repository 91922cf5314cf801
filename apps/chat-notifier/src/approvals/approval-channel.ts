import type { InjectionToken, Type } from '@nestjs/common';
import { upstreamId, type ConfigClass, type PluginLogger, type UpstreamAccess } from '@app/plugin-kit';
import type { GateFeature } from './approve-config.dto.js';
import type { WorkflowCreator } from './workflow-creator.js';

// One provider's side of the approval gates: its channel (where a request goes, how it is answered and read,
// what reading costs), made for each gate's block by the provider's channels.

/** One answer read from the chat: a reaction on the request or a reply in its thread / a comment on its issue. */
export interface ApprovalAnswer {
  /** The provider's stable user id (Slack U…/W…, Mattermost user id, Discord snowflake, GitHub login lower-cased). */
  user: string;
  vote: 'approve' | 'reject';
  /** When the answer was given, ms since the epoch; for a reaction whose API gives no time, when first seen (0 = unknown). */
  at: number;
  /** A bot or app account: never counted. */
  bot: boolean;
  /** The reason written after the keyword of a reply or comment (commentAfterKeyword); a reaction has none. */
  comment?: string;
}

/** The request as posted: enough to read its answers and show the decision on any later call. */
export interface PostedRequest {
  /** Provider ids of the request (channel, ts / post id / message id / issue number), plain strings. */
  ref: Record<string, string>;
  /** A link people can open. */
  url: string;
  /** The account that posted it: its own answers are ignored. */
  author: string;
  /**
   * When it was posted, ms since the epoch, as the provider recorded it (also for a post found again after a
   * restart).
   */
  postedAt: number;
  /**
   * Found again: posted by an earlier call (before a sidecar restart, by another replica), not by this one. The
   * gate, which then has no record of its own from before the post, counts the timeout from `postedAt`.
   */
  found: boolean;
}

export type RequestState =
  | { kind: 'present'; answers: ApprovalAnswer[] }
  | { kind: 'deleted' }
  /** Edited by someone other than the author (the gate fails safely, never approves). */
  | { kind: 'tampered'; detail: string }
  /** Closed upstream without a decision of the approvers (a ServiceNow change cancelled): the gate fails. */
  | { kind: 'cancelled'; detail: string }
  /**
   * Already concluded by its author, the gate's own account: the decision line it shows (conclusionLine), written
   * before this process knew the gate. That decision stands.
   */
  | { kind: 'concluded'; line: string };

/** What a decided request shows: the decision's line under the request as it was posted. */
export interface Conclusion {
  decision: string;
  requestText: string;
}

/** What a gate posts: the text, the marker it is found again by, and optionally its own dedup key. */
export interface PostRequest {
  text: string;
  marker: string;
  dedup?: string;
}

/** What every provider's `approve` block has: the request's text and who may answer it. */
export interface ApprovalBlock {
  text: string;
  /** Users and groups in the provider's own ids; anyone else's answer is ignored. */
  approvers: string[];
}

/** The request of one gate's block, in one provider: posted, read, concluded on the upstream the block names. */
export interface ApprovalChannel {
  /**
   * The account the calls count against (`slack/default`): the open gates of one upstream share its budget. The
   * same upstream gives the same name.
   */
  readonly upstream: string;
  /** The provider's published limit on `upstream`, in calls a minute. */
  readonly callsPerMinute: number;
  /**
   * The admin's variable of the calls a minute every gate of this sidecar on `upstream` may make together
   * (`SLACK_APPROVAL_CALLS_PER_MINUTE`); unset, 0.8 × `callsPerMinute` (approvalBudget).
   */
  readonly budgetVariable: string;
  /**
   * The HTTP calls one read() makes against that budget (at most, but for further pages); the first call of a
   * gate (the search for an earlier request, then the post) costs no more. Of a provider whose limit counts
   * each method apart (Slack), the calls of one method.
   */
  readonly callsPerRead: number;
  /** The request's last sentence: how to answer (which reactions, which replies). */
  readonly howToAnswer: string;
  /** How a user id is written so the chat shows the person (`<@U0123>` in Slack); the id as it is otherwise. */
  mention(user: string): string;
  /**
   * How text that is data (an approver's comment) is written so the chat shows it as written, never as its markup
   * (Slack: `&`, `<`, `>` as entities), and read back from the line the gate wrote; as it is when absent.
   */
  readonly escapeData?: (data: string) => string;
  readonly unescapeData?: (text: string) => string;
  /**
   * Posts the request once per execution: first looks for an earlier post carrying `marker` (a restart, another
   * replica) and returns that one, with the time it was posted then, instead of posting again. `dedup` keys the
   * provider's own guard against a repeated send (Mattermost's pending_post_id, Discord's nonce): the marker
   * unless given (a deleted request's record must not be answered with the deleted post).
   */
  post(request: PostRequest, signal: AbortSignal): Promise<PostedRequest>;
  /** The request's current answers (every page of reactions and replies). */
  read(posted: PostedRequest, signal: AbortSignal): Promise<RequestState>;
  /** The user ids the listed approvers stand for (user groups / teams expanded; plain users as they are). */
  members(approvers: string[], signal: AbortSignal): Promise<Set<string>>;
  /**
   * Shows the decision (its line, "Approved by @x at …") on the request: the request as posted (`requestText`)
   * with the line below it, edited in place; GitHub: the line as a comment, the issue closed.
   */
  conclude(posted: PostedRequest, conclusion: Conclusion, signal: AbortSignal): Promise<void>;
  /**
   * The chat accounts of the workflow's creator, through the provider's own look-up (Slack: users.lookupByEmail);
   * empty when none is found. Only of a provider whose channels support `excludeCreator`.
   */
  creatorAccounts?(creator: WorkflowCreator, signal: AbortSignal): Promise<Set<string>>;
}

/** Where a gate runs: its workflow's namespace and the scopes (the upstreams it may use), its logger. */
export interface GateWhere extends UpstreamAccess {
  logger: PluginLogger;
}

/** `mattermost/ops`: the upstream of a provider's destination a block names (the default one when undefined). */
export function upstreamOf(key: string, destination: string | undefined): string {
  return `${key}/${upstreamId(destination)}`;
}

/** A provider's channels: one object per sidecar, made in the notifier's module. */
export interface ApprovalChannels<C extends ApprovalBlock = ApprovalBlock> {
  /** The body fields beyond the basic gate its channels can do; a body asking for another fails naming it. */
  readonly supports: ReadonlySet<GateFeature>;
  /**
   * The channel of one gate's block; a destination the namespace may not use, or one not configured, is a
   * PluginConfigError naming the field.
   */
  channelFor(block: C, where: GateWhere): ApprovalChannel;
}

/** What a provider's definition loads for its `approval` slot. */
export interface ApprovalSlot<C extends ApprovalBlock = ApprovalBlock> {
  /** The class of its block under `approve` (its class-validator rules). */
  block: ConfigClass<C>;
  /** Makes its channels from what it injects (a Nest factory provider's `inject` and `useFactory`). */
  channels: {
    inject: InjectionToken[];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each provider injects its own classes
    useFactory: (...deps: any[]) => ApprovalChannels<C>;
  };
  /** Classes it injects that the notifier's module does not already provide. */
  helpers?: Type[];
}
