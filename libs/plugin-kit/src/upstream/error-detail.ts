import { redactInScope } from './upstream-scope.js';

/**
 * A short, human-readable detail from an upstream error body: JSON fields, a text line or an HTML title.
 * Secrets are masked in the whole text before any of it is cut (the scan window, then the length), so a
 * credential echoed across a cut never survives as a prefix (`Bearer ghp_FAKEgithubTO…`), and whitespace
 * collapsing cannot move the unmasked part of one to the front.
 */
export function errorDetail(data: unknown, maxLength = 200): string | undefined {
  let detail: string | undefined;
  if (data && typeof data === 'object' && !Buffer.isBuffer(data)) {
    const d = data as Record<string, unknown>;
    const candidate = [d.message, d.error_description, d.error, d.msg, d.detail, d.errorMessage].find(
      (v) => typeof v === 'string' || (v && typeof v === 'object'),
    );
    detail = typeof candidate === 'string' ? candidate : candidate ? JSON.stringify(candidate) : undefined;
  } else if (typeof data === 'string' || Buffer.isBuffer(data)) {
    detail = textDetail(redactInScope(String(data)).slice(0, MAX_SCAN));
  }
  if (!detail) return undefined;
  // Masked whole before the cut, and again (clipMasked) after entities were decoded and whitespace collapsed.
  const flat = redactInScope(detail).slice(0, MAX_SCAN).replace(/\s+/g, ' ').trim();
  return clipMasked(flat, maxLength) || undefined;
}

/**
 * `text` with the current scope's secrets masked, then cut to `max` characters with an ellipsis (clip): the one
 * way upstream text (error details, log tails, notebook output) is shortened, so a cut never leaves part of a
 * credential behind.
 */
export function clipMasked(text: string, max: number): string {
  return clip(redactInScope(text), max);
}

/**
 * `text` cut to `max` characters with an ellipsis, never between the halves of a character outside the BMP (a
 * lone surrogate, which JSON carries as `\ud83d` and Go and chat services decode as U+FFFD): the one way any
 * text is shortened to a limit.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, pairSafeCut(text, max - 1))}…`;
}

/** `at`, or one less where a cut at `at` would split a surrogate pair in two. */
export function pairSafeCut(text: string, at: number): number {
  return at > 0 && at < text.length && isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Only the start of a (possibly MiB-sized) error text is parsed (after it was masked whole). */
const MAX_SCAN = 64 * 1024;

function textDetail(text: string): string | undefined {
  if (!/<\/?[a-z][\s\S]*>/i.test(text)) return text;
  // Jetty/Jenkins error pages: the <title> or the first heading says it all ("Error 404 Not Found").
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const heading = /<h[12][^>]*>([\s\S]*?)<\/h[12]>/i.exec(text)?.[1];
  const pick = (heading ?? title ?? text).replace(/<[^>]+>/g, ' ');
  return decodeEntities(pick);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
