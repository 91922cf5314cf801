import { SlackApiStandIn } from '../stand-ins/slack/slack-api.stand-in.js';
import { outputs, slack, startSlackFixture, type SlackFixture } from './support.js';

/** Slack takes the next posts (`times`, else every one) but answers after the client's 400 ms timeout. */
function answerPostsLate(f: SlackFixture, times?: number): void {
  f.ws.slack.server.faults.add(
    { kind: 'delay', ms: 700 },
    { ...(times && { times }), match: (req) => req.path === '/api/chat.postMessage' },
  );
}

describe('slack plugin: exactly one message per execution', () => {
  let f: SlackFixture;
  beforeEach(async () => {
    f = await startSlackFixture();
  });
  afterEach(() => f.close());
  const posts = () => f.ws.slack.okCalls('chat.postMessage').length;

  it('20 repeated calls (requeues, agent retries) → one message, the same reply every time', async () => {
    const body = slack({ channel: '#builds', text: 'Build 7 passed', status: 'succeeded' });
    const replies = [];
    for (let i = 0; i < 20; i++) replies.push((await f.h.execute(body)).body);
    expect(posts()).toBe(1);
    expect(f.ws.slack.posts(f.ws.builds)).toHaveLength(1);
    for (const r of replies) expect(r).toEqual(replies[0]);
    expect(replies[0].node?.phase).toBe('Succeeded');
  });

  it('16 concurrent identical calls → one message', async () => {
    const body = slack({ channel: '#builds', text: 'concurrent', file: { content: 'x', filename: 'x.txt' } });
    const replies = await Promise.all(Array.from({ length: 16 }, () => f.h.execute(body)));
    expect(posts()).toBe(1);
    expect(f.ws.slack.okCalls('files.completeUploadExternal')).toHaveLength(1);
    for (const r of replies) expect(r.body).toEqual(replies[0].body);
  });

  it('different key values are different notifications', async () => {
    await f.h.execute(slack({ channel: '#builds', text: 'same', key: 'step-a' }));
    await f.h.execute(slack({ channel: '#builds', text: 'same', key: 'step-b' }));
    expect(posts()).toBe(2);
  });

  it('a sidecar restart between two calls → still one message (found by its metadata), same outputs', async () => {
    const body = slack({ channel: '#builds', text: 'before the restart' });
    const first = await f.h.execute(body);
    await f.restart();
    const second = await f.h.execute(body);
    expect(posts()).toBe(1);
    expect(outputs(second.body)).toEqual(outputs(first.body));
    expect(second.body.node?.message).toBe(
      `posted to #builds: ${outputs(first.body).permalink} (found in Slack after a restart; not sent again)`,
    );
    expect(
      f.h.logs.some((l) => String(l.msg).includes('already posted its message (found by its metadata)')),
    ).toBe(true);
  });

  it('after a restart, a first call that fails before or during the search leaves the search to the next call', async () => {
    const body = slack({ channel: '#builds', text: 'search survives failures' });
    await f.h.execute(body);
    await f.restart();
    f.ws.slack.httpError('conversations.list', 503, 3); // the client's own two retries fail too
    expect((await f.h.execute(body)).body.node?.phase).toBe('Running');
    f.ws.slack.httpError('conversations.history', 503, 3);
    expect((await f.h.execute(body)).body.node?.phase).toBe('Running');
    expect((await f.h.execute(body)).body.node?.phase).toBe('Succeeded');
    expect(posts()).toBe(1);
  });

  it('restart in a thread: the replies of the thread are searched (history does not show them)', async () => {
    const root = outputs((await f.h.execute(slack({ channel: '#builds', text: 'root' }))).body);
    const body = slack({ channel: '#builds', text: 'progress', threadTs: root.ts });
    await f.h.execute(body);
    await f.restart();
    await f.h.execute(body);
    expect(posts()).toBe(2);
    expect(f.ws.slack.okCalls('conversations.replies').length).toBeGreaterThan(0);
  });

  it('a thread longer than SLACK_DEDUP_LOOKBACK: its newest replies are searched, after a restart and after a lost answer', async () => {
    const small = await startSlackFixture({ SLACK_DEDUP_LOOKBACK: '4' }, f.ws);
    try {
      const root = outputs((await small.h.execute(slack({ channel: '#builds', text: 'deploy 42' }))).body);
      const reply = (text: string, key = text) => slack({ channel: '#builds', text, threadTs: root.ts, key });
      for (let i = 0; i < 9; i++) await small.h.execute(reply(`step ${i}`));
      const mine = reply('done');
      await small.h.execute(mine);
      await small.restart();
      expect((await small.h.execute(mine)).body.node?.message).toMatch(/found in Slack after a restart/);
      // A post whose answer was lost, in the same long thread: the next call looks before posting again.
      answerPostsLate(f, 1);
      const slow = reply('slow Slack');
      expect((await small.h.execute(slow)).body.node?.phase).toBe('Running');
      await new Promise((r) => setTimeout(r, 500));
      expect((await small.h.execute(slow)).body.node?.phase).toBe('Succeeded');
      const texts = f.ws.slack.posts(f.ws.builds).map((m) => m.text);
      expect(texts.filter((t) => t.includes('done'))).toHaveLength(1);
      expect(texts.filter((t) => t.includes('slow Slack'))).toHaveLength(1);
      expect(f.ws.slack.apiCalls.filter((c) => c.method === 'conversations.replies').length).toBeGreaterThan(
        0,
      );
    } finally {
      await small.close();
    }
  });

  it('restart after the message and its file → no second post, no second upload', async () => {
    const body = slack({
      channel: '#builds',
      text: 'report',
      file: { content: 'all good', filename: 'report.txt' },
    });
    await f.h.execute(body);
    await f.restart();
    const again = await f.h.execute(body);
    expect(again.body.node?.phase).toBe('Succeeded');
    expect(posts()).toBe(1);
    expect(f.ws.slack.okCalls('files.getUploadURLExternal')).toHaveLength(1);
    expect(f.ws.slack.fileShares(f.ws.builds)).toHaveLength(1);
  });

  it('restart between the post and the file share → the file is shared once, with the file reserved before the post', async () => {
    const body = slack({
      channel: '#builds',
      text: 'report',
      file: { content: 'late', filename: 'late.txt' },
    });
    // The share fails for good (the process "dies" before completing it); the message is already posted.
    f.ws.slack.httpError('files.completeUploadExternal', 500);
    expect((await f.h.execute(body)).body.node?.phase).toBe('Running');
    await f.restart();
    const again = await f.h.execute(body);
    expect(again.body.node?.phase).toBe('Succeeded');
    expect(posts()).toBe(1);
    expect(f.ws.slack.okCalls('files.getUploadURLExternal')).toHaveLength(1);
    expect(f.ws.slack.fileShares(f.ws.builds)).toHaveLength(1);
  });

  it('an edit with a file after a restart: the edit is repeated (harmless), the file is not shared twice', async () => {
    const target = outputs((await f.h.execute(slack({ channel: '#deploys', text: 'v1' }))).body);
    const body = slack({
      channel: '#deploys',
      text: 'v2',
      updateTs: target.ts,
      file: { content: 'log', filename: 'deploy.log' },
    });
    await f.h.execute(body);
    await f.restart();
    expect((await f.h.execute(body)).body.node?.phase).toBe('Succeeded');
    expect(f.ws.slack.fileShares(f.ws.deploys)).toHaveLength(1);
    expect(f.ws.slack.okCalls('files.getUploadURLExternal')).toHaveLength(1);
  });

  it('a post whose reply was lost (timeout) is not repeated: the next call finds it', async () => {
    answerPostsLate(f);
    const body = slack({ channel: '#builds', text: 'slow Slack' });
    const first = await f.h.execute(body);
    expect(first.body.node?.phase).toBe('Running');
    expect(first.body.node?.message).toMatch(/chat\.postMessage: request failed \(timed out\)/);
    await new Promise((r) => setTimeout(r, 500));
    const second = await f.h.execute(body);
    expect(second.body.node?.phase).toBe('Succeeded');
    expect(f.ws.slack.posts(f.ws.builds)).toHaveLength(1);
  });

  it('a file share whose reply was lost is not repeated: the next call sees the file in the channel', async () => {
    f.ws.slack.server.faults.add(
      { kind: 'delay', ms: 700 },
      { match: (req) => req.path === '/api/files.completeUploadExternal' },
    );
    const body = slack({
      channel: '#builds',
      text: 'with file',
      file: { content: 'data', filename: 'data.txt' },
    });
    expect((await f.h.execute(body)).body.node?.phase).toBe('Running');
    await new Promise((r) => setTimeout(r, 500));
    expect((await f.h.execute(body)).body.node?.phase).toBe('Succeeded');
    expect(f.ws.slack.fileShares(f.ws.builds)).toHaveLength(1);
    expect(posts()).toBe(1);
  });

  it('without the history scopes: warns once, still one message per execution within the process', async () => {
    const slackApi = new SlackApiStandIn();
    await slackApi.start();
    const team = slackApi.addTeam('narrow');
    const bot = slackApi.addBot(team, 'xoxb-narrow-scopes-000000000000', [
      'chat:write',
      'channels:read',
      'groups:read',
    ]);
    const channel = team.addChannel('builds', { members: [bot.userId] });
    const narrow = await startSlackFixture({ SLACK_BOT_TOKEN: bot.token, SLACK_API_URL: slackApi.apiUrl });
    try {
      const a = slack({ channel: '#builds', text: 'one' });
      await narrow.h.execute(a);
      await narrow.h.execute(a);
      await narrow.h.execute(slack({ channel: '#builds', text: 'two' }));
      expect(channel.messages).toHaveLength(2);
      const warnings = narrow.h.logs.filter((l) => String(l.msg).startsWith('restart protection is off'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 'warn', code: 'missing_scope', workspace: 'default' });
      expect(slackApi.apiCalls.filter((c) => c.method === 'conversations.history')).toHaveLength(1);
    } finally {
      await narrow.close();
      await slackApi.close();
    }
  });

  it('SLACK_DEDUP_LOOKBACK=0 turns the search off', async () => {
    const off = await startSlackFixture({ SLACK_DEDUP_LOOKBACK: '0' }, f.ws);
    try {
      await off.h.execute(slack({ channel: '#builds', text: 'no search' }));
      expect(f.ws.slack.apiCalls.filter((c) => c.method === 'conversations.history')).toHaveLength(0);
    } finally {
      await off.close();
    }
  });

  it('the look-back reads at most SLACK_DEDUP_LOOKBACK messages', async () => {
    const small = await startSlackFixture({ SLACK_DEDUP_LOOKBACK: '3' }, f.ws);
    try {
      const body = slack({ channel: '#builds', text: 'old' });
      await small.h.execute(body);
      for (let i = 0; i < 5; i++) await small.h.execute(slack({ channel: '#builds', text: `newer ${i}` }));
      await small.restart();
      f.ws.slack.apiCalls.length = 0;
      await small.h.execute(body);
      const history = f.ws.slack.apiCalls.filter((c) => c.method === 'conversations.history');
      expect(history).toHaveLength(1);
      expect(history[0].args.limit).toBe('3');
      // The old message is beyond the window: it is posted again (the documented limit of the search).
      expect(f.ws.slack.posts(f.ws.builds).filter((m) => m.text === 'old')).toHaveLength(2);
    } finally {
      await small.close();
    }
  });
});
