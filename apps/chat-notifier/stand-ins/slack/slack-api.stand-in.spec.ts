import { WebClient, type WebAPICallResult } from '@slack/web-api';
import { apiScopedFetch } from '../../src/providers/slack/api-scoped-fetch.js';
import { SlackApiStandIn } from './slack-api.stand-in.js';
import type { Bot, Channel, Team } from './slack-state.js';

const TOKEN = 'xoxb-standin-0000-aaaaaaaaaaaaaaaaaaaaaaaa';

async function slackError(
  p: Promise<unknown>,
): Promise<{ code?: string; data?: Record<string, unknown>; retryAfter?: number; statusCode?: number }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: string; data?: Record<string, unknown> };
  }
  throw new Error('expected the call to fail');
}

describe('Slack Web API stand-in, driven by the real @slack/web-api client', () => {
  const slack = new SlackApiStandIn();
  let team: Team;
  let bot: Bot;
  let builds: Channel;
  let client: WebClient;
  const quiet = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    setLevel: () => undefined,
    getLevel: () => 'error' as never,
    setName: () => undefined,
  };

  beforeAll(async () => {
    await slack.start();
    team = slack.addTeam('acme');
    bot = slack.addBot(team, TOKEN);
    builds = team.addChannel('builds', { members: [bot.userId] });
    team.addChannel('deploys');
    team.addChannel('secret-ops', { private: true });
    team.addChannel('ops-private', { private: true, members: [bot.userId] });
    team.addChannel('old', { archived: true, members: [bot.userId] });
    client = new WebClient(TOKEN, {
      slackApiUrl: slack.apiUrl,
      logger: quiet,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
  });
  afterAll(() => slack.close());

  it('authenticates with the Bearer header the client sends; bad or missing tokens get Slack errors with HTTP 200', async () => {
    expect((await client.auth.test()).user_id).toBe(bot.userId);
    const call = slack.server.calls.at(-1)!;
    expect(call.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const wrong = new WebClient('xoxb-wrong', {
      slackApiUrl: slack.apiUrl,
      logger: quiet,
      retryConfig: { retries: 0 },
    });
    expect(await slackError(wrong.auth.test())).toMatchObject({
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'invalid_auth' },
    });
    const none = await fetch(`${slack.apiUrl}auth.test`, { method: 'POST' });
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ ok: false, error: 'not_authed' });
    const form = await fetch(`${slack.apiUrl}auth.test`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `token=${TOKEN}`,
    });
    expect(((await form.json()) as WebAPICallResult).ok).toBe(true);
    const jsonBodyToken = await fetch(`${slack.apiUrl}auth.test`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(await jsonBodyToken.json()).toEqual({ ok: false, error: 'not_authed' });
    bot.revoked = true;
    expect((await slackError(client.auth.test())).data?.error).toBe('token_revoked');
    bot.revoked = false;
  });

  it('users.lookupByEmail finds a user by the email of their profile (any case), with users:read.email only', async () => {
    const alice = team.addUser('alice', undefined, { email: 'alice@example.com' });
    const reader = slack.addBot(team, 'xoxb-email-reader-0000', ['users:read.email']);
    const c = new WebClient(reader.token, {
      slackApiUrl: slack.apiUrl,
      logger: quiet,
      retryConfig: { retries: 0 },
    });
    expect((await c.users.lookupByEmail({ email: 'Alice@Example.com' })).user).toMatchObject({
      id: alice,
      profile: { email: 'alice@example.com' },
    });
    expect((await slackError(c.users.lookupByEmail({ email: 'nobody@example.com' }))).data).toMatchObject({
      ok: false,
      error: 'users_not_found',
    });
    expect((await slackError(client.users.lookupByEmail({ email: 'alice@example.com' }))).data).toMatchObject(
      {
        error: 'missing_scope',
        needed: 'users:read.email',
      },
    );
  });

  it('answers an unknown method with 404 unknown_method', async () => {
    const res = await fetch(`${slack.apiUrl}chat.postMesage`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ok: false, error: 'unknown_method', req_method: 'chat.postMesage' });
  });

  it('pages conversations.list with cursors, hides private channels the bot is not in, and excludes archived ones on request', async () => {
    slack.listPageCap = 2;
    const pages: WebAPICallResult[] = [];
    for await (const p of client.paginate('conversations.list', {
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: 200,
    }))
      pages.push(p);
    slack.listPageCap = 1000;
    const names = pages.flatMap((p) =>
      ((p as { channels?: Array<{ name: string }> }).channels ?? []).map((c) => c.name),
    );
    expect(names.sort()).toEqual(['builds', 'deploys', 'ops-private']);
    expect(pages.length).toBe(2);
    expect(pages[0].response_metadata?.next_cursor).not.toBe('');
    expect(pages[1].response_metadata?.next_cursor).toBe('');
    expect((await slackError(client.conversations.list({ cursor: 'bm9wZQ==' }))).data?.error).toBe(
      'invalid_cursor',
    );
  });

  it('names the missing scope in `needed` and lists the granted ones in `provided`', async () => {
    const narrow = slack.addBot(team, 'xoxb-narrow-0000', ['chat:write', 'channels:read']);
    const c = new WebClient(narrow.token, {
      slackApiUrl: slack.apiUrl,
      logger: quiet,
      retryConfig: { retries: 0 },
    });
    expect(
      (await slackError(c.conversations.list({ types: 'public_channel,private_channel' }))).data,
    ).toMatchObject({
      error: 'missing_scope',
      needed: 'groups:read',
      provided: 'chat:write,channels:read',
    });
    builds.members.add(narrow.userId);
    expect((await slackError(c.conversations.history({ channel: builds.id }))).data).toMatchObject({
      error: 'missing_scope',
      needed: 'channels:history',
    });
  });

  it('receives form-encoded posts with JSON-encoded blocks and metadata, and returns metadata only with include_all_metadata', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hi* & <bye>' } }];
    const posted = await client.chat.postMessage({
      channel: builds.id,
      text: 'hi & bye > 1 <@U0AAA> &lt;',
      blocks,
      metadata: { event_type: 'argo_plugin_notification', event_payload: { key: 'k1' } },
      unfurl_links: false,
    });
    expect(posted).toMatchObject({ ok: true, channel: builds.id });
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(slack.okCalls('chat.postMessage').at(-1)?.args).toMatchObject({
      blocks: JSON.stringify(blocks),
      unfurl_links: 'false',
    });
    const plain = await client.conversations.history({ channel: builds.id, limit: 1 });
    // Kept as Slack keeps text: a stray `&` or `>` escaped, a mention and an entity as sent.
    expect(plain.messages?.[0]).toMatchObject({
      ts: posted.ts,
      text: 'hi &amp; bye &gt; 1 <@U0AAA> &lt;',
      blocks,
    });
    expect(plain.messages?.[0].metadata).toBeUndefined();
    const withMeta = await client.conversations.history({
      channel: builds.id,
      limit: 1,
      include_all_metadata: true,
    });
    expect(withMeta.messages?.[0].metadata).toEqual({
      event_type: 'argo_plugin_notification',
      event_payload: { key: 'k1' },
    });
  });

  it('refuses posts exactly like Slack: membership, archive, size, empty, blocks, metadata, channel', async () => {
    const code = async (args: Record<string, unknown>) =>
      (await slackError(client.apiCall('chat.postMessage', args))).data;
    const deploys = team.channelByName('deploys');
    expect(await code({ channel: deploys.id, text: 'x' })).toMatchObject({ error: 'not_in_channel' });
    expect(await code({ channel: team.channelByName('secret-ops').id, text: 'x' })).toMatchObject({
      error: 'channel_not_found',
    });
    expect(await code({ channel: team.channelByName('old').id, text: 'x' })).toMatchObject({
      error: 'is_archived',
    });
    expect(await code({ channel: builds.id, text: 'x'.repeat(40_001) })).toMatchObject({
      error: 'msg_too_long',
    });
    expect(await code({ channel: builds.id })).toMatchObject({ error: 'no_text' });
    expect(await code({ text: 'x' })).toMatchObject({ error: 'channel_not_found' });
    expect(await code({ channel: builds.id, blocks: '[{"type":' })).toMatchObject({
      error: 'invalid_blocks_format',
    });
    expect(await code({ channel: builds.id, blocks: [{ type: 'section' }] })).toMatchObject({
      error: 'invalid_blocks',
      errors: ['must provide either text or fields [json-pointer:/blocks/0]'],
    });
    expect(await code({ channel: builds.id, text: 'x', metadata: { event_payload: {} } })).toMatchObject({
      error: 'invalid_metadata_schema',
    });
    const wide = slack.addBot(team, 'xoxb-public-0000', ['chat:write', 'chat:write.public']);
    const c = new WebClient(wide.token, {
      slackApiUrl: slack.apiUrl,
      logger: quiet,
      retryConfig: { retries: 0 },
    });
    expect((await c.chat.postMessage({ channel: deploys.id, text: 'joined without joining' })).ok).toBe(true);
    expect((await c.chat.postMessage({ channel: '#deploys', text: 'by name' })).channel).toBe(deploys.id);
  });

  it('threads replies (a reply ts resolves to its parent), shows broadcasts in history, pages replies', async () => {
    const root = await client.chat.postMessage({ channel: builds.id, text: 'root' });
    const r1 = await client.chat.postMessage({ channel: builds.id, text: 'r1', thread_ts: root.ts });
    await client.chat.postMessage({
      channel: builds.id,
      text: 'r2',
      thread_ts: r1.ts!,
      reply_broadcast: true,
    });
    const thread = await client.conversations.replies({ channel: builds.id, ts: root.ts! });
    expect(thread.messages?.map((m) => m.text)).toEqual(['root', 'r1', 'r2']);
    expect(thread.messages?.[0]).toMatchObject({ reply_count: 2, thread_ts: root.ts });
    const history = await client.conversations.history({ channel: builds.id, limit: 2 });
    expect(history.messages?.map((m) => m.text)).toEqual(['r2', 'root']);
    expect(history.has_more).toBe(true);
    const paged = await client.conversations.replies({ channel: builds.id, ts: root.ts!, limit: 2 });
    expect(paged.messages?.length).toBe(2);
    expect(
      (
        await client.conversations.replies({
          channel: builds.id,
          ts: root.ts!,
          cursor: paged.response_metadata!.next_cursor!,
        })
      ).messages?.map((m) => m.text),
    ).toEqual(['r2']);
    expect(
      (
        await slackError(
          client.chat.postMessage({ channel: builds.id, text: 'x', thread_ts: '1000000000.000001' }),
        )
      ).data?.error,
    ).toBe('thread_not_found');
  });

  it('replies by time range, as Slack documents them: the earliest of the range first, the parent always first', async () => {
    const root = await client.chat.postMessage({ channel: builds.id, text: 'root' });
    const ts: string[] = [];
    for (let i = 0; i < 5; i++)
      ts.push((await client.chat.postMessage({ channel: builds.id, text: `r${i}`, thread_ts: root.ts })).ts!);
    const texts = async (args: Record<string, unknown>) => {
      const page = await client.conversations.replies({ channel: builds.id, ts: root.ts!, ...args });
      return { texts: page.messages?.map((m) => m.text), hasMore: page.has_more };
    };
    expect(await texts({ oldest: ts[2] })).toEqual({ texts: ['root', 'r3', 'r4'], hasMore: false });
    expect(await texts({ oldest: ts[2], inclusive: true })).toEqual({
      texts: ['root', 'r2', 'r3', 'r4'],
      hasMore: false,
    });
    expect(await texts({ oldest: ts[0], latest: ts[3], inclusive: true, limit: 3 })).toEqual({
      texts: ['root', 'r0', 'r1'],
      hasMore: true,
    });
    expect(await texts({ latest: ts[1] })).toEqual({ texts: ['root', 'r0'], hasMore: false });
  });

  it('chat.update keeps fields not sent and clears them with []; only the author may edit; getPermalink', async () => {
    const posted = await client.chat.postMessage({
      channel: builds.id,
      text: 'v1',
      attachments: [{ color: '#E01E5A', fallback: 'x', blocks: [{ type: 'divider' }] }],
    });
    await client.chat.update({ channel: builds.id, ts: posted.ts!, text: 'v2' });
    let stored = builds.messages.find((m) => m.ts === posted.ts)!;
    expect(stored).toMatchObject({ text: 'v2', edits: 1 });
    expect(stored.attachments).toHaveLength(1);
    await client.chat.update({ channel: builds.id, ts: posted.ts!, text: 'v3', attachments: [] });
    stored = builds.messages.find((m) => m.ts === posted.ts)!;
    expect(stored.attachments).toBeUndefined();
    expect(
      (await slackError(client.chat.update({ channel: builds.id, ts: '1000000000.000001', text: 'x' }))).data
        ?.error,
    ).toBe('message_not_found');
    const other = slack.addBot(team, 'xoxb-other-0000');
    const c = new WebClient(other.token, {
      slackApiUrl: slack.apiUrl,
      logger: quiet,
      retryConfig: { retries: 0 },
    });
    expect(
      (await slackError(c.chat.update({ channel: builds.id, ts: posted.ts!, text: 'hijack' }))).data?.error,
    ).toBe('cant_update_message');
    const link = await client.chat.getPermalink({ channel: builds.id, message_ts: posted.ts! });
    expect(link.permalink).toBe(
      `https://acme.slack.com/archives/${builds.id}/p${posted.ts!.replace('.', '')}`,
    );
  });

  it('runs the two-step upload of the client (filesUploadV2) and shares the file into the thread', async () => {
    const root = await client.chat.postMessage({ channel: builds.id, text: 'report follows' });
    const result = await client.filesUploadV2({
      channel_id: builds.id,
      thread_ts: root.ts!,
      content: 'a,b\n1,2\n',
      filename: 'r.csv',
      title: 'Results',
    });
    expect(result.ok).toBe(true);
    const share = slack.fileShares(builds).at(-1)!;
    expect(share).toMatchObject({
      thread_ts: root.ts,
      files: [{ name: 'r.csv', title: 'Results', size: 8 }],
    });
    const upload = [...slack.uploads.values()].at(-1)!;
    expect(upload).toMatchObject({ content: 'a,b\n1,2\n', completions: 1, sentAuthorization: true });
    expect(slack.server.calls.find((c) => c.path.startsWith('/upload/'))?.headers['content-type']).toMatch(
      /^multipart\/form-data; boundary=/,
    );
  });

  it('with the plugin fetch, the token never goes to the upload URL', async () => {
    slack.listPageCap = 1000;
    const scoped = new WebClient(TOKEN, {
      slackApiUrl: `http://localhost:${new URL(slack.url).port}/api/`,
      fetch: apiScopedFetch(`http://localhost:${new URL(slack.url).port}/api/`),
      logger: quiet,
      retryConfig: { retries: 0 },
    });
    await scoped.filesUploadV2({ channel_id: builds.id, content: 'hello', filename: 'h.txt' });
    expect([...slack.uploads.values()].at(-1)).toMatchObject({ content: 'hello', sentAuthorization: false });
  });

  it('refuses an upload without files:write, and completing a file whose bytes never arrived', async () => {
    const noFiles = slack.addBot(team, 'xoxb-nofiles-0000', ['chat:write']);
    const c = new WebClient(noFiles.token, {
      slackApiUrl: slack.apiUrl,
      logger: quiet,
      retryConfig: { retries: 0 },
    });
    expect(
      (await slackError(c.files.getUploadURLExternal({ filename: 'a.txt', length: 3 }))).data,
    ).toMatchObject({ error: 'missing_scope', needed: 'files:write' });
    const reserved = await client.files.getUploadURLExternal({ filename: 'a.txt', length: 3 });
    expect(
      (
        await slackError(
          client.files.completeUploadExternal({ files: [{ id: reserved.file_id! }], channel_id: builds.id }),
        )
      ).data?.error,
    ).toBe('file_not_found');
  });

  it('answers 429 with Retry-After on demand; the client reports the wait', async () => {
    slack.rateLimit('chat.postMessage', 7);
    const err = await slackError(client.chat.postMessage({ channel: builds.id, text: 'x' }));
    expect(err).toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 7 });
    expect(slack.server.calls.at(-1)).toMatchObject({ status: 429, fault: 'rate-limit' });
    expect((await client.chat.postMessage({ channel: builds.id, text: 'x' })).ok).toBe(true);
  });
});
