import type { GoogleChatConfig } from './google-chat-block.dto.js';
import { STATUS_STYLES } from '../../shared/status-style.js';

type Widget = Record<string, unknown>;

/** The JSON body of spaces.messages.create: text, and a cards v2 card when there is more than text. */
export interface GoogleChatMessage {
  text?: string;
  cardsV2?: Array<{
    cardId: string;
    card: { header?: Record<string, string>; sections: Array<{ widgets: Widget[] }> };
  }>;
}

/** Google Chat's card text understands a few HTML tags; the body's text is escaped before it goes in. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A body as a Google Chat message. Plain text (mentions first) when there is nothing else; with a status, a
 * title or fields, a card: the header carries the status symbol and label, the status line is coloured
 * (cards have no side bar), fields are decorated text. Mentions stay in `text`, where they notify.
 */
export function renderGoogleChat(config: GoogleChatConfig): GoogleChatMessage {
  const mentions = (config.mentions ?? []).map((m) => (m === 'all' ? '<users/all>' : `<${m}>`)).join(' ');
  const style = config.status ? STATUS_STYLES[config.status] : undefined;
  if (!style && !config.title && !config.fields) return { text: join(mentions, config.text) };
  const widgets: Widget[] = [];
  if (style)
    widgets.push({
      textParagraph: { text: `<font color="${style.color}"><b>${style.symbol} ${style.label}</b></font>` },
    });
  if (config.text) widgets.push({ textParagraph: { text: escape(config.text) } });
  for (const { name, value } of config.fields ?? [])
    widgets.push({ decoratedText: { topLabel: escape(name), text: escape(value), wrapText: true } });
  const title = config.title ?? style?.label ?? 'Notification';
  return {
    ...(mentions && { text: mentions }),
    cardsV2: [
      {
        cardId: 'argo-notification',
        card: {
          header: {
            title: style ? `${style.symbol} ${title}` : title,
            ...(style && config.title && { subtitle: style.label }),
          },
          sections: [{ widgets }],
        },
      },
    ],
  };
}

function join(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => !!p).join(' ');
}
