import { blockProblems } from '../block-kit-check.js';
import type { MethodCall, MethodHandler } from '../method-call.js';
import { requireScopes, visibleChannel } from '../method-call.js';
import { SlackFailure } from '../slack-args.js';
import type { Channel, Message } from '../slack-state.js';

/** Slack truncates or refuses text beyond this many characters. */
export const MAX_TEXT = 40_000;

interface Content {
  text?: string;
  blocks?: unknown[];
  attachments?: unknown[];
}

/** text/blocks/attachments as Slack checks them; undefined fields were not sent. */
function readContent(call: MethodCall): Content {
  const text = call.args.string('text');
  if (text !== undefined && text.length > MAX_TEXT) throw new SlackFailure('msg_too_long');
  const blocks = call.args.json('blocks', 'invalid_blocks_format');
  if (blocks !== undefined) {
    if (!Array.isArray(blocks)) throw new SlackFailure('invalid_blocks_format');
    const problems = blockProblems(blocks, '/blocks');
    if (problems.length > 0) throw invalidBlocks('invalid_blocks', problems);
  }
  const attachments = call.args.json('attachments', 'invalid_attachments');
  if (attachments !== undefined) {
    if (!Array.isArray(attachments)) throw new SlackFailure('invalid_attachments');
    const problems = attachments.flatMap((a, i) =>
      a && typeof a === 'object' && (a as { blocks?: unknown }).blocks !== undefined
        ? blockProblems((a as { blocks: unknown }).blocks, `/attachments/${i}/blocks`)
        : [],
    );
    if (problems.length > 0) throw invalidBlocks('invalid_attachments', problems);
  }
  return {
    text: text === undefined ? undefined : storedText(text),
    blocks: blocks as unknown[] | undefined,
    attachments: attachments as unknown[] | undefined,
  };
}

/**
 * A message's text as Slack keeps and returns it: `&`, `<` and `>` are its control characters, so a `<…>`
 * sequence (a mention, a link) and an entity (`&amp;`, `&lt;`, `&gt;`) stay, and any other `&`, `<` or `>` is
 * escaped (https://api.slack.com/reference/surfaces/formatting#escaping).
 */
export function storedText(text: string): string {
  return text.replace(/<[^<>]*>|&(?:amp|lt|gt);|[&<>]/g, (part) =>
    part === '&' ? '&amp;' : part === '<' ? '&lt;' : part === '>' ? '&gt;' : part,
  );
}

function invalidBlocks(error: string, problems: string[]): SlackFailure {
  return new SlackFailure(error, {
    errors: problems,
    response_metadata: { messages: problems.map((p) => `[ERROR] ${p}`) },
  });
}

function readMetadata(call: MethodCall): Message['metadata'] {
  const metadata = call.args.json('metadata', 'invalid_metadata_format');
  if (metadata === undefined) return undefined;
  const m = metadata as { event_type?: unknown; event_payload?: unknown };
  if (
    !m ||
    typeof m !== 'object' ||
    typeof m.event_type !== 'string' ||
    !m.event_payload ||
    typeof m.event_payload !== 'object'
  ) {
    throw new SlackFailure('invalid_metadata_schema');
  }
  return { event_type: m.event_type, event_payload: m.event_payload as Record<string, unknown> };
}

function postableChannel(call: MethodCall): Channel {
  const channel = visibleChannel(call, 'channel', { byName: true });
  if (channel.isArchived) throw new SlackFailure('is_archived');
  if (!channel.members.has(call.bot.userId) && !call.bot.scopes.has('chat:write.public'))
    throw new SlackFailure('not_in_channel');
  return channel;
}

/** The thread a reply goes to: its parent, also when the ts of a reply is given (as Slack does). */
export function threadRoot(channel: Channel, threadTs: string | undefined): Message | undefined {
  if (threadTs === undefined) return undefined;
  const target = channel.messages.find((m) => m.ts === threadTs);
  if (!target) throw new SlackFailure('thread_not_found');
  const rootTs = target.thread_ts ?? target.ts;
  return channel.messages.find((m) => m.ts === rootTs);
}

/** Adds a message (a reply too, updating its parent's thread fields). */
export function appendMessage(channel: Channel, message: Message, root: Message | undefined): void {
  if (root) {
    message.thread_ts = root.ts;
    root.thread_ts = root.ts;
    root.reply_count = (root.reply_count ?? 0) + 1;
    root.latest_reply = message.ts;
  }
  channel.messages.push(message);
}

export const chatPostMessage: MethodHandler = (call) => {
  requireScopes(call, 'chat:write');
  const channel = postableChannel(call);
  const content = readContent(call);
  if (content.text === undefined && content.blocks === undefined && content.attachments === undefined)
    throw new SlackFailure('no_text');
  const metadata = readMetadata(call);
  const root = threadRoot(channel, call.args.string('thread_ts'));
  const message: Message = {
    type: 'message',
    ts: call.team.nextTs(),
    user: call.bot.userId,
    ...(!call.bot.person && { bot_id: call.bot.botId, app_id: call.bot.appId }),
    text: content.text ?? '',
    ...(content.blocks && { blocks: content.blocks }),
    ...(content.attachments && { attachments: content.attachments }),
    ...(metadata && { metadata }),
    ...(root && call.args.bool('reply_broadcast') && { subtype: 'thread_broadcast' as const }),
    origin: 'chat.postMessage',
    edits: 0,
  };
  appendMessage(channel, message, root);
  const { origin: _o, edits: _e, metadata: _m, ...visible } = message;
  return { channel: channel.id, ts: message.ts, message: visible };
};

/** chat.update: fields not sent are kept (as Slack does); `[]` clears blocks or attachments. */
export const chatUpdate: MethodHandler = (call) => {
  requireScopes(call, 'chat:write');
  const channel = visibleChannel(call, 'channel');
  const ts = call.args.string('ts');
  const message = ts ? channel.messages.find((m) => m.ts === ts) : undefined;
  if (!message) throw new SlackFailure('message_not_found');
  if (message.user !== call.bot.userId) throw new SlackFailure('cant_update_message');
  if (channel.isArchived) throw new SlackFailure('is_archived');
  const content = readContent(call);
  if (content.text === undefined && content.blocks === undefined && content.attachments === undefined)
    throw new SlackFailure('no_text');
  const metadata = readMetadata(call);
  if (content.text !== undefined) message.text = content.text;
  if (content.blocks !== undefined) message.blocks = content.blocks.length > 0 ? content.blocks : undefined;
  if (content.attachments !== undefined)
    message.attachments = content.attachments.length > 0 ? content.attachments : undefined;
  if (metadata) message.metadata = metadata;
  message.edits++;
  message.edited = { user: call.bot.userId, ts: call.team.nextTs() };
  return { channel: channel.id, ts: message.ts, text: message.text };
};

export const chatGetPermalink: MethodHandler = (call) => {
  const channel = visibleChannel(call, 'channel');
  const ts = call.args.string('message_ts');
  const message = ts ? channel.messages.find((m) => m.ts === ts) : undefined;
  if (!message) throw new SlackFailure('message_not_found');
  const base = `https://${call.team.domain}.slack.com/archives/${channel.id}/p${message.ts.replace('.', '')}`;
  const reply = message.thread_ts !== undefined && message.thread_ts !== message.ts;
  return {
    channel: channel.id,
    permalink: reply ? `${base}?thread_ts=${message.thread_ts}&cid=${channel.id}` : base,
  };
};
