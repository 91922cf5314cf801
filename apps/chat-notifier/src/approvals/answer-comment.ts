// A reason on record: what an approver writes after the keyword of their answer (`approve: ship it`,
// `/deny not on Friday`) is the answer's comment, kept on one line so the request's decision line can carry it.

import { clip } from '@app/plugin-kit/upstream/error-detail.js';

/** The longest comment kept, in characters (a longer one is cut, ending with …). */
export const COMMENT_LIMIT = 500;

/**
 * The comment of a reply whose first word is its vote: the rest of the text after that word (`approve`, `/deny`) and the
 * punctuation that follows it, its whitespace (newlines too) folded to single spaces; undefined when nothing
 * is left (a bare `approve`).
 */
export function commentAfterKeyword(text: string): string | undefined {
  const rest = text
    .trim()
    .replace(/^\/?[a-z]+/i, '')
    .replace(/^[\s.!,:;–—-]+/, '');
  const line = rest.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return clip(line, COMMENT_LIMIT);
}
