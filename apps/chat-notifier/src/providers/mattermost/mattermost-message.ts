import type { MattermostConfig } from './mattermost-block.dto.js';
import { STATUS_STYLES } from '../../shared/status-style.js';

/** Message attachments (Slack-compatible): the coloured bar, title, text and fields. */
interface Attachment {
  fallback: string;
  color?: string;
  title?: string;
  text?: string;
  fields?: Array<{ title: string; value: string; short: boolean }>;
}

export interface MattermostMessage {
  message: string;
  attachments: Attachment[];
}

/** A field value this short is shown side by side with the next one. */
const SHORT_FIELD = 40;

/**
 * A body as a Mattermost post. Plain text (mentions first) when there is nothing else; with a status, a
 * title or fields, the content goes into an attachment whose bar carries the status colour, and the post's
 * message keeps the status emoji and the mentions (so they notify).
 */
export function renderMattermost(config: MattermostConfig): MattermostMessage {
  const mentions = (config.mentions ?? []).map((m) => `@${m}`).join(' ');
  const style = config.status ? STATUS_STYLES[config.status] : undefined;
  const text =
    config.text ??
    (config.title || config.fields ? undefined : (config.file?.title ?? config.file?.filename));
  if (!style && !config.title && !config.fields) return { message: join(mentions, text), attachments: [] };
  const fields = (config.fields ?? []).map(({ name, value }) => ({
    title: name,
    value,
    short: value.length <= SHORT_FIELD,
  }));
  const summary = config.title ?? text ?? fields.map((f) => `${f.title}: ${f.value}`).join(', ');
  return {
    message: join(style?.emoji, style && `**${style.label}**`, mentions),
    attachments: [
      {
        fallback: join(style?.label, summary),
        ...(style && { color: style.color }),
        ...(config.title && { title: config.title }),
        ...(text && { text }),
        ...(fields.length > 0 && { fields }),
      },
    ],
  };
}

function join(...parts: Array<string | undefined | false>): string {
  return parts.filter((p): p is string => !!p).join(' ');
}
