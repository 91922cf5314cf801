import { runWorkflow, type WorkflowShape } from '@app/local-agent';
import { startMattermostDemo, type MattermostDemoServer } from '../demo/mattermost.js';
import { EXECUTION_KEY_PROP } from '../src/providers/mattermost/mattermost.provider.js';
import { describeProviderContract } from './provider-contract.js';
import { notify, outputs, startNotifier, type PluginFixture } from './support.js';

const OUTPUTS = ['id', 'channel', 'thread', 'url'];

describeProviderContract({
  provider: 'mattermost',
  outputs: OUTPUTS,
  body: { channel: 'builds', team: 'eng', text: 'Build 7 passed', status: 'succeeded' },
  async start() {
    const demo = await startMattermostDemo();
    return {
      env: demo.env,
      sent: () => demo.mm.posts(demo.builds).length,
      rateLimitNextSend: (seconds) => demo.mm.rateLimitPosts(seconds),
      close: () => demo.close(),
    };
  },
  badCredential: {
    env: () => ({ MATTERMOST_TOKEN: 'mmrevoked0token0nobodyknows0000' }),
    secrets: ['mmrevoked0token0nobodyknows0000'],
    message:
      /→ 401 Unauthorized: Invalid or expired session, please login again\. \(api\.context\.session_expired\.app_error\): the token of server "default" is invalid, expired or revoked: the admin renews MATTERMOST_TOKEN$/,
  },
});

/** Post, reply in its thread, then edit the first post: the outputs of one step feed the next. */
function conversation(file?: Record<string, string>): WorkflowShape {
  const step = (name: string, body: Record<string, unknown>) => ({
    name,
    inputs: { parameters: [{ name: 'id', value: '' }] },
    outputs: { parameters: OUTPUTS.map((p) => ({ name: p, valueFrom: { supplied: {} } })) },
    plugin: { notify: { mattermost: { channel: 'builds', team: 'eng', ...body } } },
  });
  const fromStart = { parameters: [{ name: 'id', value: '{{steps.start.outputs.parameters.id}}' }] };
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'mattermost-conversation-' },
    spec: {
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [
            [{ name: 'start', template: 'start' }],
            [{ name: 'progress', template: 'progress', arguments: fromStart }],
            [{ name: 'finish', template: 'finish', arguments: fromStart }],
          ],
        },
        step('start', { text: 'Deploying 1.4.2', status: 'running', mentions: '@alice, here' }),
        step('progress', {
          text: 'migrations done',
          thread: '{{inputs.parameters.id}}',
          ...(file && { file }),
        }),
        step('finish', {
          text: 'Deployed 1.4.2',
          status: 'succeeded',
          title: 'Release 1.4.2',
          fields: [
            { name: 'Environment', value: 'production' },
            { name: 'Duration', value: '3m 12s' },
          ],
          update: '{{inputs.parameters.id}}',
        }),
      ],
    },
  };
}

describe('mattermost: post, thread reply, edit in place, file, mentions', () => {
  let demo: MattermostDemoServer;
  let f: PluginFixture;
  beforeAll(async () => {
    demo = await startMattermostDemo();
    f = await startNotifier(demo.env);
  });
  afterAll(async () => {
    await f.close();
    await demo.close();
  });

  it('a post, a reply with a file in its thread, then the post edited to its final status', async () => {
    const result = await runWorkflow(
      conversation({ content: 'all 12 migrations applied', filename: 'migrations.log' }),
      {
        plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
        timeScale: 0.01,
      },
    );
    expect(result.phase).toBe('Succeeded');
    const start = result.node('start')!.outputs!.parameters!;
    const id = start.find((p) => p.name === 'id')!.value!;
    const [root, reply] = demo.mm.posts(demo.builds);
    expect(demo.mm.posts(demo.builds)).toHaveLength(2);
    expect(root.id).toBe(id);
    expect(reply.root_id).toBe(id);
    expect(demo.mm.state.files.get(reply.file_ids[0])).toMatchObject({
      name: 'migrations.log',
      content: 'all 12 migrations applied',
      post_id: reply.id,
    });
    // The edit: the final status replaced the running one, the mentions are gone as the body has none.
    expect(root.edit_at).toBeGreaterThan(0);
    expect(root.message).toBe(':white_check_mark: **Succeeded**');
    expect(root.props).toMatchObject({
      [EXECUTION_KEY_PROP]: expect.stringMatching(/^[0-9a-f]{64}$/),
      attachments: [
        {
          color: '#2EB67D',
          title: 'Release 1.4.2',
          text: 'Deployed 1.4.2',
          fields: [
            { title: 'Environment', value: 'production', short: true },
            { title: 'Duration', value: '3m 12s', short: true },
          ],
        },
      ],
    });
    expect(result.node('progress')?.message).toBe(
      `replied in thread ${id} in ~builds: ${demo.mm.url}/_redirect/pl/${reply.id} with file migrations.log`,
    );
    expect(result.node('finish')?.message).toBe(`updated ${demo.mm.url}/_redirect/pl/${id}`);
  });

  it('mentions notify: @username and @here lead the message', async () => {
    const reply = await f.h.execute(
      notify('mattermost', {
        channel: demo.deploys.id,
        text: 'on call, please look',
        mentions: ['alice', '@here'],
      }),
    );
    expect(reply.body.node?.phase).toBe('Succeeded');
    const post = demo.mm.state.posts.get(outputs(reply.body).id)!;
    expect(post.message).toBe('@alice @here on call, please look');
    expect(outputs(reply.body)).toEqual({
      id: post.id,
      channel: demo.deploys.id,
      thread: post.id,
      url: `${demo.mm.url}/_redirect/pl/${post.id}`,
    });
  });

  it('a restart in a thread searches the thread; a restart after a lost reply finds the post', async () => {
    const root = outputs(
      (await f.h.execute(notify('mattermost', { channel: 'builds', team: 'eng', text: 'root', key: 't' })))
        .body,
    );
    const body = notify('mattermost', { channel: 'builds', team: 'eng', text: 'in thread', thread: root.id });
    await f.h.execute(body);
    await f.restart();
    expect((await f.h.execute(body)).body.node?.message).toMatch(
      /\(found in Mattermost after a restart; not sent again\)$/,
    );
    // Every first call of a process looks: the one before the restart and the one after.
    expect(demo.mm.okCalls('GET', `/api/v4/posts/${root.id}/thread`)).toBe(2);

    const before = demo.mm.posts(demo.builds).length;
    demo.mm.server.faults.add(
      { kind: 'delay', ms: 1500 },
      { match: (r) => r.method === 'POST' && r.path === '/api/v4/posts' },
    );
    const lost = notify('mattermost', { channel: 'builds', team: 'eng', text: 'slow answer' });
    expect((await f.h.execute(lost)).body.node?.phase).toBe('Running');
    await new Promise((r) => setTimeout(r, 1600));
    expect((await f.h.execute(lost)).body.node?.phase).toBe('Succeeded');
    expect(demo.mm.posts(demo.builds).length - before).toBe(1);
  });

  it("failures an author can act on: unknown channel, a channel the bot is not in, another channel's post, unknown server", async () => {
    const run = async (body: Record<string, unknown>) =>
      (await f.h.execute(notify('mattermost', body))).body.node?.message;
    expect(await run({ channel: 'nope', team: 'eng', text: 'x' })).toMatch(
      /^mattermost: GET \/teams\/name\/eng\/channels\/name\/nope → 404 Not Found: .*: no channel "nope" in team "eng" that the bot can see/,
    );
    expect(await run({ channel: demo.general.id, text: 'x' })).toMatch(
      /→ 403 Forbidden: .*: the bot lacks a permission here: add it to the team and the channel/,
    );
    const other = outputs(
      (await f.h.execute(notify('mattermost', { channel: 'deploys', team: 'eng', text: 'elsewhere' }))).body,
    );
    expect(await run({ channel: 'builds', team: 'eng', text: 'x', update: other.id })).toBe(
      `notify: invalid config: mattermost.update: post ${other.id} is not in channel builds`,
    );
    expect(await run({ channel: 'builds', text: 'x' })).toBe(
      'notify: invalid config: mattermost.channel: a channel name needs team (the team name from the URL, e.g. team: eng), or give the channel ID',
    );
    expect(await run({ channel: 'builds', team: 'eng', text: 'x', server: 'ops' })).toBe(
      'notify: invalid config: mattermost.server: no Mattermost server "ops" for namespace argo (known: default (no server)); the admin adds one with MATTERMOST_OPS_URL and MATTERMOST_OPS_TOKEN',
    );
  });
});

describe('mattermost: not configured', () => {
  it('a sidecar without Mattermost settings fails the node naming them', async () => {
    const f = await startNotifier({ SLACK_BOT_TOKEN: 'xoxb-only-slack-here-000000' });
    try {
      const reply = await f.h.execute(notify('mattermost', { channel: 'builds', team: 'eng', text: 'x' }));
      expect(reply.body.node).toEqual({
        phase: 'Failed',
        message:
          'notify: invalid config: no Mattermost server is configured for this sidecar (the admin sets MATTERMOST_URL and MATTERMOST_TOKEN)',
      });
    } finally {
      await f.close();
    }
  });
});
