import { UpstreamError } from '@app/plugin-kit';

/**
 * The path and query of a Link header's `rel="next"` (RFC 8288, as GitHub and ServiceNow page their lists),
 * which must point into the API at `base`: a next link elsewhere would carry the credential to another host.
 */
export function nextPageLink(
  upstream: string,
  path: string,
  base: string,
  link: unknown,
): string | undefined {
  const next = typeof link === 'string' ? /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] : undefined;
  if (next === undefined) return undefined;
  if (!next.startsWith(`${base}/`))
    throw UpstreamError.permanent(`${upstream}: GET ${path}: the next page's link leaves ${base}`);
  return next.slice(base.length);
}
