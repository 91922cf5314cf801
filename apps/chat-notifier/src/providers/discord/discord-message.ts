import { clip } from '@app/plugin-kit/upstream/error-detail.js';
import type { DiscordConfig } from './discord-block.dto.js';
import { STATUS_STYLES } from '../../shared/status-style.js';

/** Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). */
const CONTENT_LIMIT = 2000;
const DESCRIPTION_LIMIT = 4096;
const FIELD_VALUE_LIMIT = 1024;
const SHORT_FIELD = 40;

interface Embed {
  title?: string;
  description?: string;
  color?: number;
  fields?: Array<{ name: string; value: string; inline: boolean }>;
}

/** The JSON of an execute or edit call (files go beside it, as multipart). */
export interface DiscordMessage {
  content: string;
  embeds: Embed[];
  /** Only the mentions the body lists ping anyone. */
  allowed_mentions: { parse: string[]; users: string[]; roles: string[] };
}

/**
 * A body as a Discord message. Plain content (mentions first) when there is nothing else; with a status, a
 * title or fields, an embed whose side bar carries the status colour, and the content keeps the status
 * symbol and the mentions (mentions in embeds never ping).
 */
export function renderDiscord(config: DiscordConfig): DiscordMessage {
  const mentions = config.mentions ?? [];
  const mentionText = mentions
    .map((m) =>
      m === 'everyone' || m === 'here' ? `@${m}` : m.startsWith('&') ? `<@&${m.slice(1)}>` : `<@${m}>`,
    )
    .join(' ');
  const allowed = {
    parse: mentions.some((m) => m === 'everyone' || m === 'here') ? ['everyone'] : [],
    users: mentions.filter((m) => /^\d/.test(m)),
    roles: mentions.filter((m) => m.startsWith('&')).map((m) => m.slice(1)),
  };
  const style = config.status ? STATUS_STYLES[config.status] : undefined;
  const text =
    config.text ??
    (config.title || config.fields ? undefined : (config.file?.title ?? config.file?.filename));
  if (!style && !config.title && !config.fields)
    return {
      content: clip(join(mentionText, text), CONTENT_LIMIT),
      embeds: [],
      allowed_mentions: allowed,
    };
  const embed: Embed = {
    ...(config.title && { title: config.title }),
    ...(text && { description: clip(text, DESCRIPTION_LIMIT) }),
    ...(style && { color: parseInt(style.color.slice(1), 16) }),
    ...(config.fields && {
      fields: config.fields.map(({ name, value }) => ({
        name,
        value: clip(value, FIELD_VALUE_LIMIT),
        inline: value.length <= SHORT_FIELD,
      })),
    }),
  };
  return {
    content: join(style?.symbol, style && `**${style.label}**`, mentionText),
    embeds: [embed],
    allowed_mentions: allowed,
  };
}

function join(...parts: Array<string | undefined | false>): string {
  return parts.filter((p): p is string => !!p).join(' ');
}
