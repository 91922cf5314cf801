import { PluginConfigError } from '@app/plugin-kit';
import { clip, pairSafeCut } from '@app/plugin-kit/upstream/error-detail.js';
import { MAX_BLOCKS, type Block } from './block-kit-input.js';
import type { SlackConfig } from './slack-block.dto.js';
import { renderMentions } from './slack-mentions.js';
import { slackEscape } from './slack-votes.js';
import { STATUS_STYLES } from '../../shared/status-style.js';

export interface Attachment {
  color: string;
  fallback: string;
  blocks: Block[];
}

/** The message fields of chat.postMessage / chat.update. `text` is always set: notifications and screen readers use it. */
export interface RenderedMessage {
  text: string;
  blocks?: Block[];
  attachments?: Attachment[];
}

/** Slack's limit for the text of a section block. */
const SECTION_TEXT_LIMIT = 3000;
const FALLBACK_LIMIT = 300;

type Content = Pick<SlackConfig, 'text' | 'blocks' | 'status' | 'mentions' | 'file'>;

/**
 * Turns a body into a Slack message.
 * - No status: the text (mentions first) is the message; blocks are shown as given, after a mention line.
 * - With a status: a small header line (emoji, status, mentions) and the content in an attachment, whose
 *   bar carries the status colour (blocks have no colour of their own; hex values, as named colours render grey).
 * A file without text or blocks is announced by its title.
 */
export function renderMessage(content: Content): RenderedMessage {
  const mentions = renderMentions(content.mentions);
  // A file's title or name is data, not mrkdwn: shown as written.
  const fileName = content.file?.title ?? content.file?.filename;
  const body = content.text ?? (content.blocks || fileName === undefined ? undefined : slackEscape(fileName));
  const style = content.status ? STATUS_STYLES[content.status] : undefined;
  const summary = body ?? summarizeBlocks(content.blocks ?? []) ?? 'Slack notification';
  const fallback = join(style?.emoji, mentions, summary);

  if (!style) {
    if (!content.blocks) return { text: join(mentions, body) };
    const blocks = mentions ? [sectionBlock(mentions), ...content.blocks] : content.blocks;
    if (blocks.length > MAX_BLOCKS) {
      throw new PluginConfigError(
        `blocks: with mentions at most ${MAX_BLOCKS - 1} blocks fit (the mentions take one line)`,
      );
    }
    return { text: fallback, blocks };
  }

  const header = join(style.emoji, `*${style.label}*`, mentions);
  const card = content.blocks ?? sectionBlocks(body ?? summary);
  return {
    text: fallback,
    blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: header }] }],
    attachments: [{ color: style.color, fallback: clip(fallback, FALLBACK_LIMIT), blocks: card }],
  };
}

function join(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => !!p).join(' ');
}

function sectionBlock(text: string): Block {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** Text split over as many sections as needed (3,000 characters each), preferring line breaks. */
export function sectionBlocks(text: string): Block[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > SECTION_TEXT_LIMIT) {
    const cut = rest.lastIndexOf('\n', SECTION_TEXT_LIMIT);
    const at = cut > SECTION_TEXT_LIMIT / 2 ? cut : pairSafeCut(rest, SECTION_TEXT_LIMIT);
    chunks.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n/, '');
  }
  if (rest.length > 0 || chunks.length === 0) chunks.push(rest || ' ');
  return chunks.slice(0, MAX_BLOCKS).map(sectionBlock);
}

/** A notification text for a blocks-only message: the first header or section text. */
function summarizeBlocks(blocks: Block[]): string | undefined {
  for (const block of blocks) {
    const text = (block.text as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && text.trim() !== '') return clip(text.trim(), FALLBACK_LIMIT);
  }
  return undefined;
}
