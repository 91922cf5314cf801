import { PluginConfigError, type PluginLogger } from '@app/plugin-kit';
import type {
  ApprovalAnswer,
  ApprovalChannel,
  ApprovalChannels,
  Conclusion,
  GateWhere,
  PostedRequest,
  PostRequest,
  RequestState,
} from '../../approvals/approval-channel.js';
import type { GateFeature } from '../../approvals/approve-config.dto.js';
import type { WorkflowCreator } from '../../approvals/workflow-creator.js';
import { commentAfterKeyword } from '../../approvals/answer-comment.js';
import { conclusionLine } from '../../approvals/concluded-decision.js';
import { withDecision } from '../../shared/approval-fields.js';
import { replyFields } from '../../shared/reply-fields.js';
import { CallBudget } from './call-budget.js';
import type { ChannelResolver } from './channel-resolver.js';
import type { DuplicateFinder } from './duplicate-finder.js';
import { NOTIFICATION_EVENT } from './execution-metadata.js';
import { slackCall } from './slack-call.js';
import type { SlackClientFactory, WorkspaceClient } from './slack-client.factory.js';
import { slackErrorCode } from './slack-errors.js';
import type { SlackApprovalConfig } from './slack-approval-config.dto.js';
import type { SlackDirectory } from './slack-directory.js';
import { reactionVote, replyVote, slackEscape, slackUnescape } from './slack-votes.js';

/** Slack's Tier 3 (reactions.get, conversations.replies): 50 calls a minute per method, workspace and app. */
export const SLACK_READS_PER_MINUTE = 50;
/** Replies read per conversations.replies page (Slack suggests at most 200). */
const REPLIES_PAGE = 200;
/** Codes that mean the request (or its thread) is no longer there. */
const GONE = new Set(['message_not_found', 'thread_not_found']);

interface SlackMessage {
  ts?: string;
  user?: string;
  bot_id?: string;
  subtype?: string;
  text?: string;
  edited?: { user?: string };
  reactions?: Array<{ name?: string; users?: string[] }>;
}

/** A message's `ts` (seconds.microseconds, Slack's time of the post) as ms since the epoch. */
function tsMillis(ts: string): number {
  return Math.round(Number(ts) * 1000);
}

/** `<@U0123>` for a user, `<!subteam^S0123>` for a group by ID: what Slack shows as the person or group. */
export function slackMention(id: string): string {
  if (id.startsWith('@')) return id;
  return id.startsWith('S') ? `<!subteam^${id}>` : `<@${id}>`;
}

/** The request of one `approve: {slack: …}` block: posted in its channel, answered by reactions and thread replies. */
export class SlackApprovalChannel implements ApprovalChannel {
  /** Slack counts each method apart: a read calls reactions.get and conversations.replies once each (a page). */
  readonly callsPerRead = 1;
  readonly howToAnswer =
    'React with :white_check_mark: to approve or :x: to reject, or reply `approve` or `reject` in the thread.';
  readonly callsPerMinute = SLACK_READS_PER_MINUTE;
  readonly budgetVariable = 'SLACK_APPROVAL_CALLS_PER_MINUTE';
  readonly mention = slackMention;
  readonly escapeData = slackEscape;
  readonly unescapeData = slackUnescape;

  constructor(
    readonly upstream: string,
    private readonly client: WorkspaceClient,
    private readonly channelRef: string,
    private readonly logger: PluginLogger,
    private readonly channels: ChannelResolver,
    private readonly finder: DuplicateFinder,
    private readonly directory: SlackDirectory,
  ) {}

  async post(request: PostRequest, signal: AbortSignal): Promise<PostedRequest> {
    const { client, logger } = this;
    const budget = new CallBudget(signal);
    const channel = await this.channels.resolve(client, this.channelRef, budget, logger);
    const where = { channel: channel.id, label: channel.label };
    // Only a message of the gate's own bot user is its request: a copy with the marker by anyone else is not.
    const author = await this.directory.botUser(client, budget, logger);
    const earlier = await this.finder.findPost(client, where, request.marker, budget, logger, author);
    let ts = earlier?.ts;
    if (ts)
      logger.info(
        { ts },
        'slack: this gate already posted its request (found by its metadata); not posting again',
      );
    else {
      const site = { method: 'chat.postMessage', workspace: client.workspace, channel: channel.label };
      const posted = await slackCall(site, budget, logger, () =>
        client.writes.chat.postMessage({
          channel: channel.id,
          text: request.text,
          unfurl_links: false,
          metadata: { event_type: NOTIFICATION_EVENT, event_payload: { key: request.marker } },
        }),
      );
      ts = replyFields('slack', 'chat.postMessage', posted, { ts: 'string' }).ts;
    }
    const site = { method: 'chat.getPermalink', workspace: client.workspace, channel: channel.label, ts };
    const link = await slackCall(site, budget, logger, () =>
      client.reads.chat.getPermalink({ channel: channel.id, message_ts: ts }),
    );
    const { permalink } = replyFields('slack', 'chat.getPermalink', link, { permalink: 'string' });
    return {
      ref: { channel: channel.id, ts },
      url: permalink,
      author,
      postedAt: tsMillis(ts),
      found: earlier !== undefined,
    };
  }

  async read(posted: PostedRequest, signal: AbortSignal): Promise<RequestState> {
    const { client, logger } = this;
    const { channel, ts } = posted.ref as { channel: string; ts: string };
    const budget = new CallBudget(signal);
    const gone = async <T>(method: string, call: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await slackCall({ method, workspace: client.workspace, channel, ts }, budget, logger, call);
      } catch (err) {
        if (GONE.has(slackErrorCode(err) ?? '')) return undefined;
        throw err;
      }
    };
    const reacted = await gone('reactions.get', () =>
      client.reads.reactions.get({ channel, timestamp: ts, full: true }),
    );
    const message = reacted?.message as SlackMessage | undefined;
    if (!message || message.subtype === 'tombstone') return { kind: 'deleted' };
    if (message.edited?.user && message.edited.user !== posted.author)
      return { kind: 'tampered', detail: `edited by ${message.edited.user}` };
    // Only the bot edits its request: to show the decision (chat.update).
    const line = message.edited ? conclusionLine(message.text ?? '') : undefined;
    if (line) return { kind: 'concluded', line };

    const answers: ApprovalAnswer[] = [];
    for (const reaction of message.reactions ?? []) {
      const vote = reactionVote(reaction.name ?? '');
      if (vote)
        for (const user of reaction.users ?? [])
          answers.push({ user, vote, at: 0, bot: await this.directory.isBot(client, user, budget, logger) });
    }
    let cursor: string | undefined;
    do {
      const page = await gone('conversations.replies', () =>
        client.reads.conversations.replies({ channel, ts, limit: REPLIES_PAGE, ...(cursor && { cursor }) }),
      );
      if (!page) return { kind: 'deleted' };
      for (const reply of (page.messages ?? []) as SlackMessage[]) {
        const vote = reply.ts === ts ? undefined : replyVote(reply.text);
        if (!vote || !reply.user) continue;
        const bot = reply.bot_id !== undefined || reply.subtype === 'bot_message';
        const comment = commentAfterKeyword(slackUnescape(reply.text ?? ''));
        answers.push({ user: reply.user, vote, at: tsMillis(reply.ts!), bot, ...(comment && { comment }) });
      }
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    return { kind: 'present', answers };
  }

  async members(approvers: string[], signal: AbortSignal): Promise<Set<string>> {
    const budget = new CallBudget(signal);
    const users = new Set<string>();
    for (const approver of approvers) {
      if (/^[UW]/.test(approver)) {
        users.add(approver);
        continue;
      }
      const group = approver.startsWith('@')
        ? await this.directory.groupByHandle(this.client, approver.slice(1), budget, this.logger)
        : approver;
      if (!group)
        throw new PluginConfigError(
          `approvers: no user group ${approver} in workspace "${this.client.workspace}"`,
        );
      for (const user of await this.directory.groupMembers(this.client, group, budget, this.logger))
        users.add(user);
    }
    return users;
  }

  /** The creator's user by the email of their Slack profile (users.lookupByEmail); none without an email. */
  async creatorAccounts(creator: WorkflowCreator, signal: AbortSignal): Promise<Set<string>> {
    if (!creator.email) return new Set();
    const budget = new CallBudget(signal);
    const user = await this.directory.userByEmail(this.client, creator.email, budget, this.logger);
    return new Set(user ? [user] : []);
  }

  async conclude(posted: PostedRequest, conclusion: Conclusion, signal: AbortSignal): Promise<void> {
    const { channel, ts } = posted.ref as { channel: string; ts: string };
    // chat.update replaces the whole text: the request as posted, the decision below it.
    const text = withDecision(conclusion.requestText, conclusion.decision);
    const site = { method: 'chat.update', workspace: this.client.workspace, channel, ts };
    await slackCall(site, new CallBudget(signal), this.logger, () =>
      this.client.writes.chat.update({ channel, ts, text }),
    );
  }
}

/** The Slack approval channels of a sidecar: a channel per gate, on the clients of the workspace its block names. */
export class SlackApprovalChannels implements ApprovalChannels<SlackApprovalConfig> {
  /**
   * `excludeCreator`: the creator's email through users.lookupByEmail; `rules`: users and user groups;
   * `requireComment`: a thread reply's reason.
   */
  readonly supports = new Set<GateFeature>(['excludeCreator', 'rules', 'requireComment']);
  constructor(
    private readonly clients: SlackClientFactory,
    private readonly channels: ChannelResolver,
    private readonly finder: DuplicateFinder,
    private readonly directory: SlackDirectory,
  ) {}

  channelFor(block: SlackApprovalConfig, where: GateWhere): SlackApprovalChannel {
    const client = this.clients.forWorkspace(block.workspace, where.namespace);
    const { channels, finder, directory } = this;
    const upstream = `slack/${client.workspace}`;
    return new SlackApprovalChannel(
      upstream,
      client,
      block.channel,
      where.logger,
      channels,
      finder,
      directory,
    );
  }
}
