import { DEMO_BOT_TOKEN } from '../demo/upstreams.js';
import { outputs, slack, startSlackFixture, type SlackFixture } from './support.js';

describe('slack plugin: posting, threads, edits, files (kit harness + Slack stand-in)', () => {
  let f: SlackFixture;
  beforeAll(async () => {
    f = await startSlackFixture();
  });
  afterAll(() => f.close());
  beforeEach(() => {
    f.ws.slack.apiCalls.length = 0;
  });
  const calls = (method: string) => f.ws.slack.okCalls(method).length;

  it('posts to a channel by name: one message with the execution key in its metadata, outputs ts/channel/threadTs/permalink', async () => {
    const res = await f.h.execute(
      slack(
        { channel: '#builds', text: 'Build *42* started', status: 'running' },
        { workflow: { uid: 'uid-post' } },
      ),
    );
    expect(res.body.node?.phase).toBe('Succeeded');
    const out = outputs(res.body);
    const message = f.ws.builds.messages.find((m) => m.ts === out.ts)!;
    expect(out).toEqual({
      ts: message.ts,
      channel: f.ws.builds.id,
      threadTs: message.ts,
      permalink: expect.stringMatching(/^https:\/\/argo-demo\.slack\.com\/archives\//),
    });
    expect(res.body.node?.message).toBe(`posted to #builds: ${out.permalink}`);
    expect(message.metadata).toEqual({
      event_type: 'argo_plugin_notification',
      event_payload: {
        key: expect.stringMatching(/^[0-9a-f]{64}$/),
        workflow_uid: 'uid-post',
        workflow_name: 'wf-abc12',
        workflow_namespace: 'argo',
        template: 'main',
      },
    });
    expect(message.attachments).toEqual([
      {
        color: '#36C5F0',
        fallback: ':hourglass_flowing_sand: Build *42* started',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Build *42* started' } }],
      },
    ]);
    expect(f.ws.slack.okCalls('chat.postMessage')[0].args).toMatchObject({
      unfurl_links: 'false',
      channel: f.ws.builds.id,
    });
  });

  it('resolves a name once per workspace (cached) and uses IDs as they are', async () => {
    await f.h.execute(slack({ channel: 'builds', text: 'cached name', key: 'a' }));
    expect(calls('conversations.list')).toBe(0);
    const byId = await f.h.execute(slack({ channel: f.ws.deploys.id, text: 'by id' }));
    expect(byId.body.node?.phase).toBe('Succeeded');
    expect(outputs(byId.body).channel).toBe(f.ws.deploys.id);
    expect(calls('conversations.list')).toBe(0);
  });

  it('replies in a thread, broadcasts on request, and hands the thread root on as threadTs', async () => {
    const root = outputs(
      (await f.h.execute(slack({ channel: '#builds', text: 'root', key: 'thread-root' }))).body,
    );
    const reply = await f.h.execute(slack({ channel: '#builds', text: 'step 1 done', threadTs: root.ts }));
    const out = outputs(reply.body);
    expect(out.threadTs).toBe(root.ts);
    expect(out.ts).not.toBe(root.ts);
    expect(reply.body.node?.message).toBe(`replied in thread ${root.ts} in #builds: ${out.permalink}`);
    expect(out.permalink).toContain(`?thread_ts=${root.ts}`);
    const broadcast = outputs(
      (
        await f.h.execute(
          slack({ channel: '#builds', text: 'all done', threadTs: root.ts, replyBroadcast: 'true' }),
        )
      ).body,
    );
    const stored = f.ws.builds.messages.find((m) => m.ts === broadcast.ts)!;
    expect(stored).toMatchObject({ thread_ts: root.ts, subtype: 'thread_broadcast' });
    expect(f.ws.builds.messages.find((m) => m.ts === root.ts)).toMatchObject({ reply_count: 2 });
  });

  it('edits a message in place; a repeated edit call is replayed, and a stale status bar is removed', async () => {
    const first = outputs(
      (await f.h.execute(slack({ channel: '#deploys', text: 'Deploying api', status: 'running' }))).body,
    );
    const edit = slack({ channel: '#deploys', text: 'Deployed api', updateTs: first.ts });
    const updated = await f.h.execute(edit);
    expect(updated.body.node?.message).toBe(`updated ${first.permalink}`);
    expect(outputs(updated.body)).toEqual(first);
    const stored = f.ws.deploys.messages.find((m) => m.ts === first.ts)!;
    expect(stored).toMatchObject({ text: 'Deployed api', edits: 1 });
    expect(stored.attachments).toBeUndefined();
    expect(stored.blocks).toBeUndefined();
    await f.h.execute(edit);
    expect(calls('chat.update')).toBe(1);
    expect(f.ws.deploys.messages.filter((m) => m.text.includes('Deploy'))).toHaveLength(1);
  });

  it('uploads a file once (two-step upload) and shares it in the same thread, after the message', async () => {
    const root = outputs(
      (await f.h.execute(slack({ channel: '#builds', text: 'nightly', key: 'file-root' }))).body,
    );
    const body = slack({
      channel: '#builds',
      text: 'Report attached',
      threadTs: root.ts,
      file: { content: '# Results\n\n12 passed\n', filename: 'results.md', title: 'Test results' },
    });
    const res = await f.h.execute(body);
    expect(res.body.node?.message).toMatch(/^replied in thread .* with file results\.md$/);
    await f.h.execute(body);
    const shares = f.ws.slack.fileShares(f.ws.builds).filter((m) => m.thread_ts === root.ts);
    expect(shares).toHaveLength(1);
    expect(shares[0].files).toEqual([
      { id: expect.stringMatching(/^F/), name: 'results.md', title: 'Test results', size: 21 },
    ]);
    const message = f.ws.builds.messages.find((m) => m.ts === outputs(res.body).ts)!;
    expect(message.metadata?.event_payload.file_id).toBe(shares[0].files![0].id);
    expect(Number(shares[0].ts)).toBeGreaterThan(Number(message.ts));
    expect(calls('files.getUploadURLExternal')).toBe(1);
    expect(calls('files.completeUploadExternal')).toBe(1);
    const upload = [...f.ws.slack.uploads.values()].find((u) => u.fileId === shares[0].files![0].id)!;
    expect(upload).toMatchObject({ content: '# Results\n\n12 passed\n', sentAuthorization: false });
  });

  it('a file without text is announced by its title', async () => {
    const res = await f.h.execute(
      slack({ channel: '#builds', file: { content: 'a,b\n', filename: 'r.csv', title: 'Raw data' } }),
    );
    expect(f.ws.builds.messages.find((m) => m.ts === outputs(res.body).ts)?.text).toBe('Raw data');
  });

  it('renders mentions and unfurls links only when asked', async () => {
    const res = await f.h.execute(
      slack({
        channel: '#builds',
        text: 'see https://example.com',
        mentions: ['U0ALICE001', 'S0ONCALL01', 'here'],
        unfurlLinks: true,
      }),
    );
    expect(f.ws.builds.messages.find((m) => m.ts === outputs(res.body).ts)?.text).toBe(
      '<@U0ALICE001> <!subteam^S0ONCALL01> <!here> see https://example.com',
    );
    expect(f.ws.slack.okCalls('chat.postMessage').at(-1)?.args.unfurl_links).toBe('true');
  });

  it('after all of the above (debug logging on), the bot token is in no log line', () => {
    expect(f.h.logs.length).toBeGreaterThan(50);
    expect(f.h.logs.some((l) => l.component === 'slack-web-api')).toBe(true);
    expect(f.h.logText()).not.toContain(DEMO_BOT_TOKEN);
    expect(f.h.logText()).not.toContain(DEMO_BOT_TOKEN.slice('xoxb-'.length));
  });
});
