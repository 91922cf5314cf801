/** One answer read from the chat: a reaction on the request or a reply in its thread / a comment on its issue. */
export interface ApprovalAnswer {
  /** The provider's stable user id (Slack U…/W…, Mattermost user id, Discord snowflake, GitHub login lower-cased). */
  user: string;
  vote: 'approve' | 'reject';
  /** When the answer was given, ms since the epoch; for a reaction whose API gives no time, when first seen (0 = unknown). */
  at: number;
  /** A bot or app account: never counted. */
  bot: boolean;
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

export interface ApprovalReader {
  /** The provider's published read budget the poll scheduler shares among all open gates of this sidecar. */
  readonly callsPerMinute: number;
  /**
   * The HTTP calls one read() makes against that budget (at most, but for further pages); the first call of a
   * gate (the search for an earlier request, then the post) costs no more. Of a provider whose limit counts
   * each method apart (Slack), the calls of one method.
   */
  readonly callsPerRead: number;
  /**
   * Posts the request once per execution: first looks for an earlier post carrying `marker` (a restart, another
   * replica) and returns that one, with the time it was posted then, instead of posting again.
   */
  post(request: { text: string; marker: string }, signal: AbortSignal): Promise<PostedRequest>;
  /** The request's current answers (every page of reactions and replies). */
  read(posted: PostedRequest, signal: AbortSignal): Promise<RequestState>;
  /** The user ids the listed approvers stand for (user groups / teams expanded; plain users as they are). */
  members(approvers: string[], signal: AbortSignal): Promise<Set<string>>;
  /**
   * Shows the decision (its line, "Approved by @x at …") on the request: the request as posted (`requestText`)
   * with the line below it, edited in place; GitHub: the line as a comment, the issue closed.
   */
  conclude(posted: PostedRequest, conclusion: Conclusion, signal: AbortSignal): Promise<void>;
}
