import {
  PluginConfigError,
  Redactor,
  UpstreamClients,
  UpstreamError,
  type UpstreamAccess,
} from '@app/plugin-kit';
import { pairSafeCut } from '@app/plugin-kit/upstream/error-detail.js';
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
import { conclusionLine } from '../../approvals/concluded-decision.js';
import { textDigest, withDecision, type Vote } from '../../shared/approval-fields.js';
import type { DiscordApprovalConfig } from './discord-approval-config.dto.js';
import { DiscordBotApi, type DiscordMessageObject } from './discord-bot-api.js';
import { DISCORD_BOTS, type DiscordBot } from './discord-bot-settings.js';

/** Reactions that vote (Unicode emoji, as Discord names them; a skin-tone variant is another emoji and no vote). */
const REACTION_VOTES: ReadonlyArray<[string, Vote]> = [
  ['👍', 'approve'],
  ['✅', 'approve'],
  ['👎', 'reject'],
  ['❌', 'reject'],
];

/** Discord's limit on a message's content. */
const CONTENT_LIMIT = 2000;

/**
 * Discord publishes one figure: 50 requests a second per bot, globally
 * (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit). Per-route buckets are not
 * published (a client must follow the X-RateLimit-* headers); the example bucket the same page shows is 5
 * requests a second, and every read of one channel's messages shares that channel's bucket. 5 a second is the
 * conservative figure: a tenth of the global limit.
 */
export const DISCORD_CALLS_PER_MINUTE = 5 * 60;

/** Discord's epoch (the first second of 2015): a snowflake's top 42 bits are ms since then. */
const DISCORD_EPOCH = 1_420_070_400_000;

/** When a message was sent, from its id (https://discord.com/developers/docs/reference#snowflakes); NaN if not one. */
function snowflakeTime(id: string): number {
  return /^\d+$/.test(id) ? Number(BigInt(id) >> 22n) + DISCORD_EPOCH : NaN;
}

/** The tag line that marks the request in its content, so it is found again after a restart. */
export function requestTag(marker: string): string {
  return `-# approval ${textDigest(marker).slice(0, 16)}`;
}

/**
 * An approval request as a Discord message a bot sends, answered by reactions (👍 ✅ approve, 👎 ❌ reject).
 * Replies are not read: reading what other people wrote needs the privileged Message Content intent. Only a
 * message's author can edit it on Discord, so nobody else can change the request; deleting it (a moderator)
 * reads as deleted. Discord does not say when a reaction was added (`at` is 0).
 */
export class DiscordApprovalChannel implements ApprovalChannel {
  /** The message, then the users of each of the four voting emoji in use. */
  readonly callsPerRead = 5;
  readonly howToAnswer = 'React with ✅ or 👍 to approve, ❌ or 👎 to reject.';
  readonly callsPerMinute = DISCORD_CALLS_PER_MINUTE;
  readonly budgetVariable = 'DISCORD_APPROVAL_CALLS_PER_MINUTE';

  constructor(
    readonly upstream: string,
    private readonly api: DiscordBotApi,
    private readonly config: DiscordApprovalConfig,
  ) {}

  mention(user: string): string {
    return `<@${user.replace(/[<@>]/g, '')}>`;
  }

  async post(request: PostRequest, signal: AbortSignal): Promise<PostedRequest> {
    const { channel } = this.config;
    const tag = requestTag(request.marker);
    const recent = await this.api.recent(channel, signal);
    // Only a message of this bot is its request: another bot in the channel can copy the tag.
    const own = recent.length > 0 ? await this.api.ownUserId(signal) : undefined;
    const earlier = recent.find((m) => m.author.id === own && m.content.includes(tag));
    // The nonce makes Discord return the message already sent by this bot for a repeated send (a few minutes).
    const message =
      earlier ??
      (await this.api.send(
        channel,
        `${request.text}\n${tag}`,
        textDigest(request.dedup ?? request.marker).slice(0, 25),
        signal,
      ));
    const guild = (await this.api.channel(channel, signal)).guild_id ?? '@me';
    return {
      ref: { channel, message: message.id },
      url: `https://discord.com/channels/${guild}/${channel}/${message.id}`,
      author: message.author.id,
      postedAt: snowflakeTime(message.id),
      found: earlier !== undefined,
    };
  }

  async read(posted: PostedRequest, signal: AbortSignal): Promise<RequestState> {
    const message = await this.existing(posted, signal);
    if (!message) return { kind: 'deleted' };
    // Only the bot can edit its message on Discord: a decision line under it is the bot's.
    const line = conclusionLine(message.content);
    if (line) return { kind: 'concluded', line };
    const answers: ApprovalAnswer[] = [];
    for (const [emoji, vote] of REACTION_VOTES) {
      // The message counts each emoji's reactions: only those someone used are listed.
      if (!message.reactions?.some((r) => r.emoji.name === emoji && r.count > 0)) continue;
      for (const user of await this.api.reactionUsers(message.channel_id, message.id, emoji, signal))
        answers.push({ user: user.id, vote, at: 0, bot: user.bot === true });
    }
    return { kind: 'present', answers };
  }

  /** Approvers are user IDs: Discord lets a bot list a role's members only with a privileged intent. */
  members(approvers: string[]): Promise<Set<string>> {
    return Promise.resolve(new Set(approvers));
  }

  async conclude(posted: PostedRequest, conclusion: Conclusion, signal: AbortSignal): Promise<void> {
    const message = await this.existing(posted, signal);
    if (!message) return;
    const text = conclusion.decision;
    const content = withDecision(message.content, text);
    if (content === message.content) return;
    const fitted =
      content.length <= CONTENT_LIMIT
        ? content
        : `${message.content.slice(0, pairSafeCut(message.content, CONTENT_LIMIT - text.length - 3))}…\n\n${text}`;
    await this.api.edit(message.channel_id, message.id, fitted.slice(0, CONTENT_LIMIT), signal);
  }

  /** The message, or undefined when it (or its channel) was deleted: 404 Unknown Message / Unknown Channel. */
  private async existing(
    posted: PostedRequest,
    signal: AbortSignal,
  ): Promise<DiscordMessageObject | undefined> {
    try {
      return await this.api.message(posted.ref.channel!, posted.ref.message!, signal);
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return undefined;
      throw err;
    }
  }
}

/**
 * The Discord approval channels of a sidecar: one API client per configured bot (DISCORD_BOT_TOKEN,
 * DISCORD_<NAME>_BOT_TOKEN), a channel per gate through the bot its block names. A webhook cannot read a channel:
 * with webhooks only, a gate fails saying so.
 */
export class DiscordApprovalChannels implements ApprovalChannels<DiscordApprovalConfig> {
  /**
   * No creator look-up yet: `excludeCreator` is refused (docs/approvals.md says what the API offers); reactions
   * carry no reason, so `requireComment` is refused too. `rules`: user IDs per rule.
   */
  readonly supports = new Set<GateFeature>(['rules']);
  private readonly apis: UpstreamClients<DiscordBot, DiscordBotApi>;

  constructor(
    private readonly bots: ReadonlyMap<string, DiscordBot>,
    /** Whether the notifier has Discord webhooks (DISCORD_WEBHOOK_URL): the message then says they cannot read. */
    private readonly hasWebhooks: boolean,
    redactor: Redactor,
    timeoutMs: number,
  ) {
    for (const bot of bots.values()) redactor.add(bot.token);
    this.apis = new UpstreamClients(
      DISCORD_BOTS,
      bots,
      (bot, name) => new DiscordBotApi(name, bot, timeoutMs),
    );
  }

  channelFor(config: DiscordApprovalConfig, access: UpstreamAccess): DiscordApprovalChannel {
    if (this.bots.size === 0 && this.hasWebhooks)
      throw new PluginConfigError(
        'discord: approval gates need a bot (the admin sets DISCORD_BOT_TOKEN): a webhook can post but cannot read reactions',
      );
    return new DiscordApprovalChannel(
      upstreamOf('discord', config.bot),
      this.apis.get(config.bot, access),
      config,
    );
  }
}
