import { runWorkflow, type WorkflowShape } from '@app/local-agent';
import { DEMO_TEAMS_CHANNEL, startTeamsBotDemo, type TeamsBotDemo } from '../demo/teams.js';
import { describeProviderContract } from './provider-contract.js';
import { notify, outputs, startNotifier, type PluginFixture } from './support.js';

const OUTPUTS = ['id', 'conversation', 'thread', 'channel'];
const WRONG_SECRET = 'Xq8~wrong0secret0value0nobody0knows00000';

describeProviderContract({
  provider: 'teams',
  outputs: OUTPUTS,
  body: { channel: DEMO_TEAMS_CHANNEL, text: 'Build 7 passed', status: 'succeeded' },
  restartSendsAgain: true,
  async start() {
    const demo = await startTeamsBotDemo();
    return {
      env: demo.env,
      sent: () => demo.bot.activities.size,
      rateLimitNextSend: (seconds) => demo.bot.throttleNext(seconds),
      close: () => demo.close(),
    };
  },
  badCredential: {
    env: () => ({ TEAMS_BOT_APP_PASSWORD: WRONG_SECRET }),
    secrets: [WRONG_SECRET, encodeURIComponent(WRONG_SECRET)],
    message:
      /^teams bot login: POST \/botframework\.com\/oauth2\/v2\.0\/token → 401 Unauthorized: AADSTS7000215: Invalid client secret provided\. .*\(invalid_client\): the bot's client secret was refused: the admin renews TEAMS_BOT_APP_PASSWORD/,
  },
});

/** Start a thread, reply in it, then edit the first message: the outputs of one step feed the next. */
function conversation(): WorkflowShape {
  const step = (name: string, body: Record<string, unknown>) => ({
    name,
    inputs: {
      parameters: [
        { name: 'id', value: '' },
        { name: 'conversation', value: '' },
      ],
    },
    outputs: { parameters: OUTPUTS.map((p) => ({ name: p, valueFrom: { supplied: {} } })) },
    plugin: { notify: { teams: body } },
  });
  const fromStart = {
    parameters: [
      { name: 'id', value: '{{steps.start.outputs.parameters.id}}' },
      { name: 'conversation', value: '{{steps.start.outputs.parameters.conversation}}' },
    ],
  };
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'teams-bot-conversation-' },
    spec: {
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [
            [{ name: 'start', template: 'start' }],
            [{ name: 'progress', template: 'progress', arguments: fromStart }],
            [{ name: 'more', template: 'more', arguments: fromStart }],
            [{ name: 'finish', template: 'finish', arguments: fromStart }],
          ],
        },
        step('start', { channel: DEMO_TEAMS_CHANNEL, text: 'Deploying 1.4.2', status: 'running' }),
        step('progress', {
          channel: DEMO_TEAMS_CHANNEL,
          thread: '{{inputs.parameters.id}}',
          text: 'migrations done',
        }),
        step('more', { conversation: '{{inputs.parameters.conversation}}', text: 'smoke tests passed' }),
        step('finish', {
          channel: DEMO_TEAMS_CHANNEL,
          update: '{{inputs.parameters.id}}',
          status: 'succeeded',
          title: 'Release 1.4.2',
          text: 'Deployed 1.4.2',
          mentions: 'alice@example.com',
        }),
      ],
    },
  };
}

describe('teams bot: a thread, replies, an edit in place, through the Bot Framework connector', () => {
  let demo: TeamsBotDemo;
  let f: PluginFixture;
  beforeAll(async () => {
    demo = await startTeamsBotDemo();
    f = await startNotifier(demo.env);
  });
  afterAll(async () => {
    await f.close();
    await demo.close();
  });

  it('a new thread, a reply by thread id, a reply by conversation, then the first message edited to its final status', async () => {
    const result = await runWorkflow(conversation(), {
      plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
      timeScale: 0.01,
    });
    expect(result.phase).toBe('Succeeded');
    const start = Object.fromEntries(
      result.node('start')!.outputs!.parameters!.map((p) => [p.name, p.value]),
    );
    const [root, reply, second] = demo.bot.messages(demo.channel);
    expect(demo.bot.messages(demo.channel)).toHaveLength(3);
    expect(start).toEqual({
      id: root.id,
      conversation: `${demo.channel};messageid=${root.id}`,
      thread: root.id,
      channel: demo.channel,
    });
    expect(root.id).toMatch(/^\d{13,}$/);
    expect([reply.root, second.root]).toEqual([root.id, root.id]);
    expect(root.edits).toBe(1);
    const card = root.attachments[0].content as { body: Array<Record<string, unknown>>; msteams: unknown };
    expect(card.body[0]).toMatchObject({ type: 'Container', style: 'good' });
    expect(card.msteams).toMatchObject({
      entities: [{ type: 'mention', text: '<at>alice@example.com</at>' }],
    });
    expect(result.node('start')?.message).toBe(
      `started a thread in Teams channel ${demo.channel}: message ${root.id} (through the bot)`,
    );
    expect(result.node('progress')?.message).toBe(
      `replied in Teams thread ${root.id}: message ${reply.id} (through the bot)`,
    );
    expect(result.node('finish')?.message).toBe(`updated Teams message ${root.id} (through the bot)`);
    // One token for the whole run: it is cached until shortly before it expires.
    expect(demo.bot.issued).toHaveLength(1);
    // Every connector call carried the bot's token in the Authorization header.
    const connectorCalls = demo.bot.server.calls.filter((c) => c.path.startsWith('/teams/'));
    expect(connectorCalls.map((c) => `${c.method} ${c.status}`)).toEqual([
      'POST 201',
      'POST 201',
      'POST 201',
      'PUT 200',
    ]);
    expect(connectorCalls[1].path).toBe(
      `/teams/v3/conversations/${encodeURIComponent(`${demo.channel};messageid=${root.id}`)}/activities/${root.id}`,
    );
  });

  it('repeating an edit is harmless: an update is idempotent by nature', async () => {
    const first = outputs(
      (await f.h.execute(notify('teams', { channel: demo.channel, text: 'v1', key: 'edit' }))).body,
    );
    const edit = notify('teams', { channel: demo.channel, update: first.id, text: 'v2' });
    expect((await f.h.execute(edit)).body.node?.phase).toBe('Succeeded');
    await f.restart();
    expect((await f.h.execute(edit)).body.node?.phase).toBe('Succeeded');
    expect(demo.bot.activities.get(first.id)?.edits).toBe(2);
  });

  it('failures an author can act on: a team without the bot, an unknown message, bot fields without a bot target', async () => {
    const run = async (body: Record<string, unknown>) => (await f.h.execute(notify('teams', body))).body.node;
    expect(await run({ channel: demo.other.channels[0], text: 'x' })).toEqual({
      phase: 'Failed',
      message:
        "teams bot: POST /v3/conversations → 403 Forbidden: The bot isn't part of the conversation roster. (BotNotInConversationRoster): the bot must be added to the team that holds the channel (install its Teams app in the team), and the tenant admin must allow it",
    });
    expect((await run({ channel: demo.channel, thread: '1700000000000', text: 'x' }))?.message).toMatch(
      /→ 404 Not Found: Conversation not found\. \(ConversationNotFound\): no such channel, conversation or message for this bot/,
    );
    expect((await run({ thread: '1700000000000', text: 'x' }))?.message).toBe(
      'notify: invalid config: teams.thread: needs channel (or conversation): replies go through the bot, not a webhook',
    );
    expect(
      (await run({ channel: demo.channel, conversation: `${demo.channel};messageid=1`, text: 'x' }))?.message,
    ).toBe('notify: invalid config: teams.conversation: give channel or conversation, not both');
    expect((await run({ channel: 'general', text: 'x' }))?.message).toBe(
      'notify: invalid config: teams.channel: must be a Teams channel id such as 19:abc…@thread.tacv2 (from the channel link, decoded)',
    );
    expect(demo.bot.messages(demo.other.channels[0])).toEqual([]);
  });
});

describe('teams bot: hostile upstreams', () => {
  let demo: TeamsBotDemo;
  let f: PluginFixture;
  beforeEach(async () => {
    demo = await startTeamsBotDemo();
    f = await startNotifier({ ...demo.env, UPSTREAM_MAX_BODY: String(64 * 1024) });
  });
  afterEach(async () => {
    await f.close();
    await demo.close();
  });
  const secrets = () => [
    demo.app.password,
    encodeURIComponent(demo.app.password),
    new URLSearchParams({ s: demo.app.password }).toString().slice(2),
    ...demo.bot.issued,
  ];

  it('a login endpoint that echoes the form (with the client secret): the step fails, no form of the secret anywhere', async () => {
    demo.bot.hostile = { mode: 'echo', status: 400 };
    const reply = await f.h.execute(notify('teams', { channel: demo.channel, text: 'x' }));
    expect(reply.body.node?.phase).toBe('Failed');
    expect(reply.body.node?.message).toMatch(/^teams bot login: .*bad request/);
    const everything = JSON.stringify(reply.body) + f.h.logText();
    for (const secret of secrets()) expect(everything).not.toContain(secret);
  });

  it('a connector that echoes the request (with the Bearer token), or answers a huge body: Failed, nothing leaks', async () => {
    expect(
      (await f.h.execute(notify('teams', { channel: demo.channel, text: 'first' }))).body.node?.phase,
    ).toBe('Succeeded');
    demo.bot.hostile = { mode: 'echo', status: 400 };
    const echoed = await f.h.execute(notify('teams', { channel: demo.channel, text: 'second' }));
    expect(echoed.body.node?.message).toMatch(
      /^teams bot: POST \/v3\/conversations → 400 Bad Request: .*bad request/,
    );
    // A small cap: reading 4 MiB can outlast the tests' 400 ms request timeout on a busy machine.
    demo.bot.hostile = { mode: 'huge', status: 201, bytes: 8 * 1024 * 1024 };
    const huge = await f.h.execute(notify('teams', { channel: demo.channel, text: 'third' }));
    expect(huge.body.node?.phase).toBe('Failed');
    expect(huge.body.node?.message).toMatch(/^teams bot: POST \/v3\/conversations: .*(too large|larger)/);
    const everything = JSON.stringify([echoed.body, huge.body]) + f.h.logText();
    expect(demo.bot.issued).toHaveLength(1);
    for (const secret of secrets()) expect(everything).not.toContain(secret);
  });
});

describe('teams bot: NAMESPACE_SCOPES and settings', () => {
  it('a namespace the bot is closed to fails naming the kind; another namespace sends', async () => {
    const demo = await startTeamsBotDemo();
    const f = await startNotifier({ ...demo.env, NAMESPACE_SCOPES: 'teamsBot/default=ops-*' });
    try {
      const body = { channel: demo.channel, text: 'x' };
      expect(
        (await f.h.execute(notify('teams', body, { workflow: { namespace: 'team-a' } }))).body.node,
      ).toEqual({
        phase: 'Failed',
        message:
          'notify: invalid config: teams.bot: no default Microsoft Teams bot for namespace team-a (the admin sets TEAMS_BOT_APP_ID and TEAMS_BOT_APP_PASSWORD); choose one of: none',
      });
      expect(
        (await f.h.execute(notify('teams', body, { workflow: { namespace: 'ops-prod' } }))).body.node?.phase,
      ).toBe('Succeeded');
      expect(demo.bot.activities.size).toBe(1);
    } finally {
      await f.close();
      await demo.close();
    }
  });

  it('a sidecar without the bot fails a bot body naming the settings', async () => {
    const f = await startNotifier({ SLACK_BOT_TOKEN: 'xoxb-only-slack-here-000000' });
    try {
      const reply = await f.h.execute(notify('teams', { channel: '19:abc@thread.tacv2', text: 'x' }));
      expect(reply.body.node?.message).toBe(
        'notify: invalid config: no Microsoft Teams bot is configured for this sidecar (the admin sets TEAMS_BOT_APP_ID and TEAMS_BOT_APP_PASSWORD)',
      );
    } finally {
      await f.close();
    }
  });
});

describe('teams bot: a token the connector stops accepting', () => {
  it('is renewed and the call made once more; a bot the connector never accepts fails with a hint', async () => {
    const demo = await startTeamsBotDemo();
    const f = await startNotifier(demo.env);
    try {
      await f.h.execute(notify('teams', { channel: demo.channel, text: 'one' }));
      demo.bot.revokeTokens();
      const second = await f.h.execute(notify('teams', { channel: demo.channel, text: 'two' }));
      expect(second.body.node?.phase).toBe('Succeeded');
      expect(demo.bot.issued).toHaveLength(2);
      demo.bot.connectorRefuses = true;
      const third = await f.h.execute(notify('teams', { channel: demo.channel, text: 'three' }));
      expect(third.body.node).toEqual({
        phase: 'Failed',
        message:
          'teams bot: POST /v3/conversations → 401 Unauthorized: Authorization has been denied for this request.: the connector refused the bot: the admin checks TEAMS_BOT_APP_ID and that the Azure Bot has its Microsoft Teams channel turned on',
      });
      expect(demo.bot.activities.size).toBe(2);
    } finally {
      await f.close();
      await demo.close();
    }
  });
});
