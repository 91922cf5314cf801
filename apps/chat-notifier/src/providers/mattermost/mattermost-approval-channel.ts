import { Redactor, UpstreamClients, UpstreamError, type UpstreamAccess } from '@app/plugin-kit';
import {
  upstreamOf,
  type ApprovalAnswer,
  type ApprovalChannel,
  type ApprovalChannels,
  type Conclusion,
  type PostedRequest,
  type PostRequest,
  type RequestState,
} from '../../approvals/approval-channel.js';
import type { GateFeature } from '../../approvals/approve-config.dto.js';
import type { WorkflowCreator } from '../../approvals/workflow-creator.js';
import { commentAfterKeyword } from '../../approvals/answer-comment.js';
import { conclusionLine } from '../../approvals/concluded-decision.js';
import { replyVote, textDigest, withDecision, type Vote } from '../../shared/approval-fields.js';
import { replyFields } from '../../shared/reply-fields.js';
import { MattermostApi, type MattermostPost } from './mattermost-api.js';
import {
  MATTERMOST_GROUP,
  mattermostApprover,
  type MattermostApprovalConfig,
} from './mattermost-approval-config.dto.js';
import { MATTERMOST_ID } from './mattermost-block.dto.js';
import { MATTERMOST_SERVERS, type MattermostServer, type MattermostSettings } from './mattermost-settings.js';

/** The post prop that carries the request's marker: how the request is found again after a restart. */
export const APPROVAL_MARKER_PROP = 'argo_approval_marker';
/** The post prop that carries the digest of the text posted: what a restarted sidecar checks the post against. */
export const APPROVAL_DIGEST_PROP = 'argo_approval_digest';
/** The post prop that carries the decision line the bot concluded the post with (Mattermost does not say who edits). */
export const APPROVAL_DECISION_PROP = 'argo_approval_decision';

/** Reactions that vote (Mattermost's emoji names: 👍 `+1`, ✅ `white_check_mark`, 👎 `-1`, ❌ `x`). */
const REACTION_VOTES: Readonly<Record<string, Vote>> = {
  '+1': 'approve',
  white_check_mark: 'approve',
  '-1': 'reject',
  x: 'reject',
};

/** A reply in the request's thread votes with its first word. */
const REPLY_WORDS = { approve: 'approve', reject: 'reject' } as const;

/**
 * Mattermost's default server rate limit (config.json RateLimitSettings: PerSec 10, MaxBurst 100, per remote
 * address; https://docs.mattermost.com/configure/rate-limiting-configuration-settings.html): 10 calls a second.
 */
export const MATTERMOST_CALLS_PER_MINUTE = 10 * 60;

/**
 * An approval request as a Mattermost post: the marker in its props, answered by reactions (👍 ✅ approve, 👎 ❌
 * reject) and by `approve` / `reject` replies in its thread. A reply edited after it was sent counts for nothing
 * (Mattermost keeps no history of what it said before). Mattermost records when a post was edited but not by
 * whom, so the request counts as tampered when its message is no longer the text that was posted.
 */
export class MattermostApprovalChannel implements ApprovalChannel {
  /** The post, its reactions, its thread, the answerers' bot flags, the approvers' usernames or one group. */
  readonly callsPerRead = 5;
  readonly howToAnswer =
    'React with :white_check_mark: or :+1: to approve, :x: or :-1: to reject, or reply `approve` or `reject` in the thread.';
  readonly callsPerMinute = MATTERMOST_CALLS_PER_MINUTE;
  readonly budgetVariable = 'MATTERMOST_APPROVAL_CALLS_PER_MINUTE';

  constructor(
    readonly upstream: string,
    private readonly api: MattermostApi,
    private readonly serverUrl: string,
    private readonly config: MattermostApprovalConfig,
    /** Recent posts of the channel searched for an earlier request (MATTERMOST_DEDUP_LOOKBACK). */
    private readonly lookback: number,
    /** User id → bot or not, shared by the readers of a server: an account does not change kind. */
    private readonly bots = new Map<string, boolean>(),
  ) {}

  /** `@alice` for a username; a user ID or a group as it is (Mattermost shows no mention for those). */
  mention(approver: string): string {
    return approver.startsWith('@') || approver.startsWith('group:') || MATTERMOST_ID.test(approver)
      ? approver
      : `@${approver}`;
  }

  async post(request: PostRequest, signal: AbortSignal): Promise<PostedRequest> {
    const channel = this.config.channel;
    const recent = this.lookback > 0 ? await this.api.recentPosts(channel, this.lookback, signal) : [];
    // Only a post of the gate's own account is its request: anyone in the channel can copy the marker.
    const own = recent.length > 0 ? await this.api.ownUserId(signal) : undefined;
    const earlier = recent.find(
      (p) => p.user_id === own && p.props?.[APPROVAL_MARKER_PROP] === request.marker && !p.root_id,
    );
    const post =
      earlier ??
      (await this.api.createPost(
        {
          channel_id: channel,
          message: request.text,
          // The digest comes back with the post when a restarted sidecar finds it (its own text differs: it is
          // written before the earlier post is found); another user's edit changes the message, never the props.
          props: { [APPROVAL_MARKER_PROP]: request.marker, [APPROVAL_DIGEST_PROP]: textDigest(request.text) },
          // Two replicas posting within Mattermost's 30 s window get the same post back.
          pending_post_id: `argo-approval-${textDigest(request.dedup ?? request.marker).slice(0, 40)}`,
        },
        signal,
      ));
    return {
      ref: {
        channel: post.channel_id,
        post: post.id,
        digest: String(post.props?.[APPROVAL_DIGEST_PROP] ?? textDigest(request.text)),
      },
      url: `${this.serverUrl}/_redirect/pl/${post.id}`,
      author: post.user_id,
      postedAt: replyFields('mattermost', 'the request post', post, { create_at: 'number' }).create_at,
      found: earlier !== undefined,
    };
  }

  async read(posted: PostedRequest, signal: AbortSignal): Promise<RequestState> {
    const id = posted.ref.post!;
    const post = await this.existing(id, signal);
    if (!post) return { kind: 'deleted' };
    const line = this.decisionLine(post, posted.ref.digest!);
    if (line) return { kind: 'concluded', line };
    if (textDigest(post.message) !== posted.ref.digest)
      return {
        kind: 'tampered',
        detail: `the request post ${id} was edited${post.edit_at ? ` at ${new Date(post.edit_at).toISOString()}` : ''}: its text is not what was posted`,
      };
    const reactions = await this.api.reactions(id, signal);
    const replies = (await this.api.thread(id, signal))
      .filter((p) => p.root_id === id && !p.delete_at)
      .sort((a, b) => (a.create_at ?? 0) - (b.create_at ?? 0));
    const answers: Array<Omit<ApprovalAnswer, 'bot'>> = [];
    for (const r of reactions) {
      const vote = REACTION_VOTES[r.emoji_name];
      if (vote) answers.push({ user: r.user_id, vote, at: r.create_at ?? 0 });
    }
    for (const reply of replies) {
      const vote = reply.edit_at ? undefined : replyVote(reply.message, REPLY_WORDS);
      const comment = vote && commentAfterKeyword(reply.message);
      if (vote)
        answers.push({ user: reply.user_id, vote, at: reply.create_at ?? 0, ...(comment && { comment }) });
      // A bot's post says so in its props, whichever account posted it.
      if (reply.props?.from_bot === 'true') this.bots.set(reply.user_id, true);
    }
    await this.learnBots(
      answers.map((a) => a.user),
      signal,
    );
    return {
      kind: 'present',
      answers: answers.map((a) => ({ ...a, bot: this.bots.get(a.user) ?? false })),
    };
  }

  async members(approvers: string[], signal: AbortSignal): Promise<Set<string>> {
    const ids = new Set<string>();
    const usernames: string[] = [];
    // A rule's approvers come as the body wrote them (`@Bob`).
    for (const approver of approvers.map(mattermostApprover)) {
      const group = MATTERMOST_GROUP.exec(approver)?.[1];
      if (group) for (const m of await this.api.groupMembers(group, signal)) ids.add(m.id);
      else if (MATTERMOST_ID.test(approver)) ids.add(approver);
      else usernames.push(approver);
    }
    for (const user of await this.api.users('usernames', usernames, signal)) ids.add(user.id);
    return ids;
  }

  /** The creator's account by the email of their Mattermost account (GET /users/email/{email}); none without one. */
  async creatorAccounts(creator: WorkflowCreator, signal: AbortSignal): Promise<Set<string>> {
    if (!creator.email) return new Set();
    const user = await this.api.userByEmail(creator.email, signal);
    return new Set(user ? [user.id] : []);
  }

  async conclude(posted: PostedRequest, conclusion: Conclusion, signal: AbortSignal): Promise<void> {
    const id = posted.ref.post!;
    const post = await this.existing(id, signal);
    if (!post) return;
    const message = withDecision(post.message, conclusion.decision);
    if (message === post.message) return;
    const props = { ...post.props, [APPROVAL_DECISION_PROP]: conclusion.decision };
    await this.api.patchPost(id, { message, props }, signal);
  }

  /**
   * The decision line the bot concluded `post` with: kept in its props, and the message is the text as posted
   * (its digest) with that line below it.
   */
  private decisionLine(post: MattermostPost, digest: string): string | undefined {
    const line = post.props?.[APPROVAL_DECISION_PROP];
    if (typeof line !== 'string' || !post.message.endsWith(`\n\n${line}`)) return undefined;
    const text = post.message.slice(0, -(line.length + 2));
    return textDigest(text) === digest ? conclusionLine(`\n\n${line}`) : undefined;
  }

  /** The post, or undefined when it was deleted (404, or a `delete_at` an admin's view may still show). */
  private async existing(id: string, signal: AbortSignal): Promise<MattermostPost | undefined> {
    try {
      const post = await this.api.getPost(id, signal);
      return post.delete_at ? undefined : post;
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** Looks up (POST /users/ids, one call) whether the users not seen before are bots. */
  private async learnBots(users: string[], signal: AbortSignal): Promise<void> {
    const unknown = [...new Set(users)].filter((u) => !this.bots.has(u));
    if (unknown.length === 0) return;
    for (const user of await this.api.users('ids', unknown, signal))
      this.bots.set(user.id, user.is_bot === true);
  }
}

/**
 * The Mattermost approval channels of a sidecar: one API client per configured server (the notifier's own
 * MATTERMOST_URL / MATTERMOST_TOKEN and named servers), a channel per gate on the server its block names.
 */
export class MattermostApprovalChannels implements ApprovalChannels<MattermostApprovalConfig> {
  /**
   * `excludeCreator`: the creator's email through GET /users/email/{email}; `rules`: users and groups per rule;
   * `requireComment`: a reply's reason.
   */
  readonly supports = new Set<GateFeature>(['excludeCreator', 'rules', 'requireComment']);
  private readonly apis: UpstreamClients<MattermostServer, MattermostApi>;
  private readonly bots = new Map<string, Map<string, boolean>>();

  constructor(
    private readonly settings: MattermostSettings,
    redactor: Redactor,
    timeoutMs: number,
  ) {
    for (const server of settings.servers.values()) redactor.add(server.token);
    this.apis = new UpstreamClients(
      MATTERMOST_SERVERS,
      settings.servers,
      (server, name) => new MattermostApi(name, server, timeoutMs),
    );
  }

  /** The channel of one gate's block; a server it may not use is a PluginConfigError naming `server`. */
  channelFor(config: MattermostApprovalConfig, access: UpstreamAccess): MattermostApprovalChannel {
    const api = this.apis.get(config.server, access);
    const { url } = this.settings.servers.get(api.server)!;
    let bots = this.bots.get(api.server);
    if (!bots) this.bots.set(api.server, (bots = new Map()));
    return new MattermostApprovalChannel(
      upstreamOf('mattermost', config.server),
      api,
      url,
      config,
      this.settings.dedupLookback,
      bots,
    );
  }
}
