import { UpstreamError } from '@app/plugin-kit';
import {
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
} from '@slack/web-api';
import { mayHaveHappened } from '../../shared/write-outcome.js';
import { slackErrorCode, slackSaidMaybeDone, toSlackError } from './slack-errors.js';
import { tokenVariable } from './slack-settings.js';

const site = {
  method: 'chat.postMessage',
  workspace: 'default',
  channel: '#builds',
  ts: '1712345678.000100',
};
const platform = (data: Record<string, unknown>) => new WebAPIPlatformError({ ok: false, ...data } as never);
const map = (err: unknown) => toSlackError(err, site);

describe('toSlackError', () => {
  it.each(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired'])(
    '%s → Failed, pointing at the Secret of the workspace',
    (code) => {
      const err = map(platform({ error: code }));
      expect(err).toMatchObject({ kind: 'permanent' });
      expect(err.message).toContain(`was rejected (${code}): check the Secret behind SLACK_BOT_TOKEN `);
      expect(toSlackError(platform({ error: code }), { ...site, workspace: 'ops' }).message).toContain(
        'SLACK_OPS_BOT_TOKEN',
      );
    },
  );

  it('missing_scope names the scope Slack says is needed, and what the token has', () => {
    expect(
      map(platform({ error: 'missing_scope', needed: 'chat:write', provided: 'channels:read' })).message,
    ).toBe(
      'slack: chat.postMessage: the bot token of workspace "default" lacks the scope chat:write (it has: channels:read) (missing_scope): add it under OAuth & Permissions and reinstall the app',
    );
  });

  it('channel errors name the channel and the fix', () => {
    expect(map(platform({ error: 'channel_not_found' })).message).toContain(
      'channel #builds not found (channel_not_found)',
    );
    expect(map(platform({ error: 'not_in_channel' })).message).toContain('chat:write.public');
    expect(map(platform({ error: 'is_archived' })).message).toContain('#builds is archived (is_archived)');
  });

  it('invalid blocks carry what Slack said ([ERROR] lines when there is no errors list)', () => {
    expect(
      map(platform({ error: 'invalid_blocks', errors: ['must provide an object [json-pointer:/blocks/0]'] }))
        .message,
    ).toBe(
      'slack: chat.postMessage: Slack rejected the blocks (invalid_blocks): must provide an object [json-pointer:/blocks/0]; try them in Block Kit Builder',
    );
    expect(
      map(
        platform({
          error: 'invalid_blocks_format',
          response_metadata: { messages: ['[ERROR] expected an array'] },
        }),
      ).message,
    ).toContain('(invalid_blocks_format): expected an array');
  });

  it('msg_too_long, thread and message errors', () => {
    expect(map(platform({ error: 'msg_too_long' })).message).toContain('40,000 characters');
    expect(map(platform({ error: 'thread_not_found' })).message).toContain(
      'thread 1712345678.000100 not found in #builds',
    );
    expect(map(platform({ error: 'cant_update_message' })).message).toContain('was not posted by this app');
  });

  it('Slack-side trouble is transient; unknown codes are permanent and named', () => {
    expect(map(platform({ error: 'internal_error' }))).toMatchObject({ kind: 'transient' });
    expect(map(platform({ error: 'ratelimited', response_metadata: { retryAfter: 3 } }))).toMatchObject({
      kind: 'transient',
      retryAfterMs: 3000,
    });
    expect(map(platform({ error: 'brand_new_error' }))).toMatchObject({
      kind: 'permanent',
      message: 'slack: chat.postMessage: Slack answered brand_new_error',
    });
  });

  it('the client errors: rate limit (with Retry-After), HTTP 5xx/4xx, network', () => {
    expect(map(new WebAPIRateLimitedError(12))).toMatchObject({
      kind: 'transient',
      status: 429,
      retryAfterMs: 12_000,
    });
    expect(map(new WebAPIHTTPError(502, 'Bad Gateway', {}, '<html>'))).toMatchObject({
      kind: 'transient',
      status: 502,
      message: 'slack: chat.postMessage: HTTP 502 Bad Gateway',
    });
    expect(
      map(new WebAPIHTTPError(404, 'Not Found', {}, '{"ok":false,"error":"unknown_method"}')),
    ).toMatchObject({ kind: 'permanent', status: 404 });
    const reset = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    });
    expect(map(new WebAPIRequestError(reset))).toMatchObject({
      kind: 'transient',
      message: 'slack: chat.postMessage: request failed (ECONNRESET)',
    });
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), {
      name: 'TimeoutError',
    });
    expect(map(new WebAPIRequestError(timeout)).message).toBe(
      'slack: chat.postMessage: request failed (timed out)',
    );
  });

  it('keeps the Slack code reachable, and knows which failures may have happened anyway', () => {
    expect(slackErrorCode(map(platform({ error: 'missing_scope', needed: 'x' })))).toBe('missing_scope');
    expect(slackErrorCode(map(new WebAPIRateLimitedError(1)))).toBeUndefined();
    const maybe = (err: unknown) => mayHaveHappened(err, slackSaidMaybeDone);
    expect(maybe(map(new WebAPIRequestError(new Error('x'))))).toBe(true);
    expect(maybe(map(new WebAPIHTTPError(503, 'x', {}, '')))).toBe(true);
    expect(maybe(map(new WebAPIRateLimitedError(1)))).toBe(false);
    expect(maybe(map(platform({ error: 'internal_error' })))).toBe(true);
    expect(maybe(map(platform({ error: 'ratelimited' })))).toBe(false);
    expect(maybe(map(platform({ error: 'channel_not_found' })))).toBe(false);
    // No reply to read (a reply too large, an error of ours): nothing says it was not posted.
    expect(maybe(UpstreamError.permanent('x'))).toBe(true);
  });

  it('names the token variable of a workspace', () => {
    expect(tokenVariable('default')).toBe('SLACK_BOT_TOKEN');
    expect(tokenVariable('eu_prod')).toBe('SLACK_EU_PROD_BOT_TOKEN');
  });
});
