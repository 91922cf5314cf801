import type { MethodCall, MethodHandler } from '../method-call.js';
import { readableChannel, requireScopes } from '../method-call.js';
import { page, SlackFailure } from '../slack-args.js';
import { compareTs, type Channel, type Message } from '../slack-state.js';

const TYPE_SCOPES: Record<string, string> = {
  public_channel: 'channels:read',
  private_channel: 'groups:read',
  mpim: 'mpim:read',
  im: 'im:read',
};

function channelObject(channel: Channel, call: MethodCall): Record<string, unknown> {
  return {
    id: channel.id,
    name: channel.name,
    is_channel: !channel.isPrivate,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: channel.isPrivate,
    is_archived: channel.isArchived,
    is_general: channel.name === 'general',
    is_member: channel.members.has(call.bot.userId),
    created: channel.created,
    num_members: channel.members.size,
  };
}

/** What Slack returns of a message; `metadata` only with include_all_metadata. */
function messageObject(message: Message, withMetadata: boolean): Record<string, unknown> {
  const { origin: _origin, edits: _edits, metadata, ...visible } = message;
  return withMetadata && metadata ? { ...visible, metadata } : visible;
}

/** conversations.list: channels the bot can see, cursor-paged (limit ≤ 1000, Slack suggests ≤ 200). */
export function conversationsList(maxPageSize: () => number): MethodHandler {
  return (call) => {
    const types = (call.args.string('types') ?? 'public_channel').split(',').map((t) => t.trim());
    const unknown = types.find((t) => !(t in TYPE_SCOPES));
    if (unknown) throw new SlackFailure('invalid_types');
    requireScopes(call, ...types.map((t) => TYPE_SCOPES[t]));
    const excludeArchived = call.args.bool('exclude_archived');
    const visible = [...call.team.channels.values()].filter(
      (c) =>
        (c.isPrivate
          ? types.includes('private_channel') && c.members.has(call.bot.userId)
          : types.includes('public_channel')) && !(excludeArchived && c.isArchived),
    );
    const { items, nextCursor } = page(visible, call.args, 100, Math.min(1000, maxPageSize()));
    return {
      channels: items.map((c) => channelObject(c, call)),
      response_metadata: { next_cursor: nextCursor },
    };
  };
}

function inRange(ts: string, call: MethodCall): boolean {
  const oldest = call.args.string('oldest');
  const latest = call.args.string('latest');
  const inclusive = call.args.bool('inclusive');
  if (oldest) {
    const c = compareTs(ts, oldest);
    if (c < 0 || (c === 0 && !inclusive)) return false;
  }
  if (latest) {
    const c = compareTs(ts, latest);
    if (c > 0 || (c === 0 && !inclusive)) return false;
  }
  return true;
}

/** conversations.history: the channel's top-level messages (and broadcast replies), newest first. */
export const conversationsHistory: MethodHandler = (call) => {
  const channel = readableChannel(call);
  const topLevel = channel.messages
    .filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts || m.subtype === 'thread_broadcast')
    .filter((m) => inRange(m.ts, call))
    .sort((a, b) => compareTs(b.ts, a.ts));
  const { items, nextCursor, hasMore } = page(topLevel, call.args, 100, 999);
  const withMetadata = call.args.bool('include_all_metadata');
  return {
    messages: items.map((m) => messageObject(m, withMetadata)),
    has_more: hasMore,
    pin_count: 0,
    response_metadata: { next_cursor: nextCursor },
  };
};

/**
 * conversations.replies (https://docs.slack.dev/reference/methods/conversations.replies): a thread, oldest
 * first, paged with cursors; `oldest`/`latest` (with `inclusive`) bound the replies' time range, the earliest
 * of it first. The parent message comes first on the first page whatever the range; later pages leave it out.
 */
export const conversationsReplies: MethodHandler = (call) => {
  const channel = readableChannel(call);
  const ts = call.args.string('ts');
  if (!ts) throw new SlackFailure('thread_not_found');
  const target = channel.messages.find((m) => m.ts === ts);
  if (!target) throw new SlackFailure('thread_not_found');
  const root = target.thread_ts ?? target.ts;
  const parent = channel.messages.find((m) => m.ts === root)!;
  const replies = channel.messages
    .filter((m) => m.thread_ts === root && m.ts !== root)
    .filter((m) => inRange(m.ts, call))
    .sort((a, b) => compareTs(a.ts, b.ts));
  const { items, nextCursor, hasMore } = page([parent, ...replies], call.args, 1000, 1000);
  const withMetadata = call.args.bool('include_all_metadata');
  return {
    messages: items.map((m) => messageObject(m, withMetadata)),
    has_more: hasMore,
    response_metadata: { next_cursor: nextCursor },
  };
};
