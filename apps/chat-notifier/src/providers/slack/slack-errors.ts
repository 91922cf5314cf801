import { UpstreamError } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { tokenVariable } from './slack-settings.js';

/** Where a failed call happened, for messages a workflow author can act on. */
export interface CallSite {
  method: string;
  workspace: string;
  /** `#builds (C0123456789)` or the ID. */
  channel?: string;
  /** The message ts the call was about (update, permalink, thread). */
  ts?: string;
}

interface PlatformData {
  error?: unknown;
  needed?: unknown;
  provided?: unknown;
  errors?: unknown;
  response_metadata?: { messages?: unknown; retryAfter?: unknown };
}

const AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'not_allowed_token_type',
]);
const TRANSIENT_ERRORS = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
  'rate_limited',
  'team_added_to_org',
]);

/**
 * Turns what @slack/web-api throws into the kit's errors: transient (Running, retried with backoff, Retry-After
 * honoured) or permanent (Failed), each with a message naming the cause and what to do. Slack answers most
 * errors with HTTP 200 and `{ok:false,error}`; the client raises those as platform errors. Nothing here
 * ever includes the token: Slack does not echo it, and the messages are built from codes.
 */
export function toSlackError(err: unknown, site: CallSite): UpstreamError {
  if (err instanceof UpstreamError) return err;
  // A reply over UPSTREAM_MAX_BODY, whether the client read it as a result or as an HTTP error body.
  const tooLarge = [err, (err as { original?: unknown } | undefined)?.original].find(
    (e) => e instanceof Error && e.name === 'ReplyTooLargeError',
  ) as Error | undefined;
  if (tooLarge) return UpstreamError.permanent(`slack: ${site.method}: ${tooLarge.message}`, { cause: err });
  const e = (err ?? {}) as {
    code?: unknown;
    data?: unknown;
    statusCode?: unknown;
    statusMessage?: unknown;
    retryAfter?: unknown;
    original?: unknown;
    message?: unknown;
  };
  const where = `slack: ${site.method}`;
  switch (e.code) {
    case 'slack_webapi_platform_error':
      return platformError((e.data ?? {}) as PlatformData, site, err);
    case 'slack_webapi_rate_limited_error': {
      const seconds = Number(e.retryAfter);
      return UpstreamError.transient(`${where}: rate limited by Slack (retry after ${seconds}s)`, {
        status: 429,
        retryAfterMs: Number.isFinite(seconds) ? seconds * 1000 : undefined,
        cause: err,
      });
    }
    case 'slack_webapi_http_error': {
      const status = Number(e.statusCode);
      const text = `${where}: HTTP ${status}${e.statusMessage ? ` ${String(e.statusMessage)}` : ''}`;
      const transient =
        status === 408 || status === 425 || status === 429 || (status >= 500 && status !== 501);
      return new UpstreamError(
        transient ? 'transient' : 'permanent',
        transient ? text : `${text} (is SLACK_API_URL pointing at Slack's Web API?)`,
        {
          status,
          cause: err,
        },
      );
    }
    case 'slack_webapi_request_error':
      return UpstreamError.transient(`${where}: request failed (${requestFailure(e.original)})`, {
        cause: err,
      });
    default: {
      const message = err instanceof Error ? err.message : String(err);
      // The client's own message for a 429 without a usable Retry-After header.
      if (/rate limit|retry header/i.test(message))
        return UpstreamError.transient(`${where}: rate limited by Slack`, { status: 429, cause: err });
      return UpstreamError.permanent(`${where}: ${message}`, { cause: err });
    }
  }
}

function platformError(data: PlatformData, site: CallSite, cause: unknown): UpstreamError {
  const code = typeof data.error === 'string' ? data.error : 'unknown_error';
  const where = `slack: ${site.method}`;
  const channel = site.channel ?? 'the channel';
  const permanent = (text: string) => UpstreamError.permanent(`${where}: ${text}`, { status: 200, cause });
  if (AUTH_ERRORS.has(code)) {
    return permanent(
      `the bot token of workspace "${site.workspace}" was rejected (${code}): check the Secret behind ${tokenVariable(site.workspace)} ` +
        `(it must hold the app's Bot User OAuth Token, xoxb-…, and the app must still be installed in the workspace)`,
    );
  }
  if (TRANSIENT_ERRORS.has(code)) {
    const retryAfter = Number(data.response_metadata?.retryAfter);
    return UpstreamError.transient(`${where}: Slack answered ${code}`, {
      status: 200,
      retryAfterMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined,
      cause,
    });
  }
  switch (code) {
    case 'missing_scope': {
      const needed = typeof data.needed === 'string' && data.needed ? data.needed : 'unknown';
      const provided =
        typeof data.provided === 'string' && data.provided ? ` (it has: ${data.provided})` : '';
      return permanent(
        `the bot token of workspace "${site.workspace}" lacks the scope ${needed}${provided} (missing_scope): add it under OAuth & Permissions and reinstall the app`,
      );
    }
    case 'channel_not_found':
      return permanent(
        `channel ${channel} not found (channel_not_found): check the name or ID; a private channel must have the app invited (/invite @your-app)`,
      );
    case 'not_in_channel':
      return permanent(
        `the app is not a member of ${channel} (not_in_channel): invite it (/invite @your-app), or add the chat:write.public scope to post in public channels without joining`,
      );
    case 'is_archived':
      return permanent(`${channel} is archived (is_archived): unarchive it or choose another channel`);
    case 'msg_too_long':
      return permanent(
        'the message is too long (msg_too_long; Slack allows 40,000 characters of text): shorten text, or send the long part as file',
      );
    case 'invalid_blocks':
    case 'invalid_blocks_format': {
      const detail = slackSaid(data);
      return permanent(
        `Slack rejected the blocks (${code})${detail ? `: ${detail}` : ''}; try them in Block Kit Builder`,
      );
    }
    case 'no_text':
      return permanent('the message has no text, blocks or attachments (no_text)');
    case 'thread_not_found':
      return permanent(
        `thread ${site.ts ?? ''} not found in ${channel} (thread_not_found): threadTs must be the ts of a message in this channel`,
      );
    case 'message_not_found':
      return permanent(
        `message ${site.ts ?? ''} not found in ${channel} (message_not_found): check updateTs and channel`,
      );
    case 'cant_update_message':
      return permanent(
        `message ${site.ts ?? ''} was not posted by this app, so it cannot be edited (cant_update_message)`,
      );
    case 'edit_window_closed':
      return permanent(`message ${site.ts ?? ''} can no longer be edited (edit_window_closed)`);
    case 'restricted_action':
    case 'restricted_action_read_only_channel':
    case 'restricted_action_thread_only_channel':
    case 'restricted_action_non_threadable_channel':
      return permanent(`a workspace setting does not allow this app to post in ${channel} (${code})`);
    case 'unknown_method':
      return permanent(
        `Slack does not know this method (unknown_method): is SLACK_API_URL pointing at Slack's Web API?`,
      );
    default: {
      const detail = slackSaid(data);
      return permanent(`Slack answered ${code}${detail ? `: ${detail}` : ''}`);
    }
  }
}

/** Slack's own explanation: `errors` (invalid_blocks) or the `[ERROR]` lines of response_metadata.messages. */
function slackSaid(data: PlatformData): string | undefined {
  const lines: string[] = [];
  if (Array.isArray(data.errors))
    lines.push(...data.errors.filter((x): x is string => typeof x === 'string'));
  const messages = data.response_metadata?.messages;
  if (lines.length === 0 && Array.isArray(messages)) {
    lines.push(
      ...messages
        .filter((x): x is string => typeof x === 'string')
        .map((m) => m.replace(/^\[(ERROR|WARN)\]\s*/, '')),
    );
  }
  const text = [...new Set(lines)].join('; ');
  return clipMasked(text, 500) || undefined;
}

/** A network failure in a few words: the errno code, or "timed out". */
function requestFailure(original: unknown): string {
  const err = original as
    | { name?: unknown; code?: unknown; cause?: { code?: unknown; message?: unknown }; message?: unknown }
    | undefined;
  if (!err) return 'no reply';
  // A DOMException from another realm arrives wrapped as `new Error(String(e))`: "TimeoutError: ...".
  if (
    err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    /^(TimeoutError|AbortError)\b/.test(String(err.message))
  )
    return 'timed out';
  const code = err.cause?.code ?? err.code;
  if (typeof code === 'string') return code;
  if (typeof err.cause?.message === 'string') return err.cause.message;
  // fetch's "TypeError: fetch failed" without its cause: the connection failed before a reply.
  return /fetch failed/.test(String(err.message)) ? 'connection failed' : String(err.message ?? 'no reply');
}

/** The Slack error code (`missing_scope`, `not_in_channel`, ...) behind an error from toSlackError, if any. */
export function slackErrorCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: unknown; data?: { error?: unknown } } } | undefined)?.cause;
  return cause?.code === 'slack_webapi_platform_error' && typeof cause.data?.error === 'string'
    ? cause.data.error
    : undefined;
}

/** Slack's own words for these: "it's possible some aspect of the operation succeeded". */
const MAYBE_DONE = new Set(['internal_error', 'fatal_error', 'request_timeout']);

/** Slack answered (HTTP 200, `ok: false`) with a code that says the write may have been carried out all the same. */
export function slackSaidMaybeDone(err: UpstreamError): boolean {
  return MAYBE_DONE.has(slackErrorCode(err) ?? '');
}
