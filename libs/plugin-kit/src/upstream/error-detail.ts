import { redactInScope } from './upstream-scope.js';

/**
 * A short, human-readable detail from an upstream error body: JSON fields, a text line or an HTML title.
 * Secrets are masked before the text is cut, so a credential echoed by the upstream never survives as a
 * prefix (`Bearer ghp_FAKEgithubTO…`).
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
    detail = textDetail(String(data).slice(0, MAX_SCAN));
  }
  if (!detail) return undefined;
  const flat = redactInScope(detail.slice(0, MAX_SCAN)).replace(/\s+/g, ' ').trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat || undefined;
}

/** Only the start of a (possibly MiB-sized) error text is looked at. */
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
