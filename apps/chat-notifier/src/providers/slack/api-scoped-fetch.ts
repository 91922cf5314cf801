import type { FetchFunction } from '@slack/web-api';
import { capResponseBody } from '@app/plugin-kit/upstream/capped-fetch.js';

type FetchRequestInit = Parameters<FetchFunction>[1];

/**
 * fetch for the WebClient that sends the bot token only to the Web API's own origin. The client adds its
 * Authorization header to every request, including the upload URL Slack hands out (files.slack.com, pre-signed,
 * needs no token): that one goes out without it. Every reply body is read only up to the plugin's
 * UPSTREAM_MAX_BODY (a larger one fails the call instead of filling the heap).
 */
export function apiScopedFetch(slackApiUrl: string): FetchFunction {
  const origin = new URL(slackApiUrl).origin;
  return (url: string | URL, init?: FetchRequestInit) => {
    const target = new URL(String(url));
    const headers = { ...init?.headers };
    if (target.origin !== origin) {
      for (const name of Object.keys(headers))
        if (name.toLowerCase() === 'authorization') delete headers[name];
    }
    return fetch(target, { ...init, headers }).then((res) => capResponseBody(res));
  };
}
