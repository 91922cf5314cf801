import { EnvValidationError } from '@app/plugin-kit';
import { startHarness, type PluginHarness } from '@app/local-agent';
import { DEMO_BOT_TOKEN } from '../demo/upstreams.js';
import { chatNotifierPlugin } from '../src/chat-notifier.plugin.js';
import { outputs, slack, startSlackFixture, type SlackFixture } from './support.js';

describe('slack plugin: failures a workflow author can act on', () => {
  let f: SlackFixture;
  beforeAll(async () => {
    f = await startSlackFixture();
  });
  afterAll(() => f.close());
  beforeEach(() => f.ws.slack.server.faults.clear());

  const run = async (body: Record<string, unknown>) => (await f.h.execute(slack(body))).body;

  it('an unknown field fails naming it, before any Slack call', async () => {
    f.ws.slack.apiCalls.length = 0;
    expect(await run({ channel: '#builds', text: 'x', thredTs: '1712345678.000100' })).toEqual({
      node: {
        phase: 'Failed',
        message: 'slack: invalid config: thredTs: unknown field (did you mean "threadTs"?)',
      },
    });
    expect(f.ws.slack.apiCalls).toHaveLength(0);
  });

  it('an unknown workspace fails naming the known ones', async () => {
    expect((await run({ channel: '#builds', text: 'x', workspace: 'ops' })).node).toEqual({
      phase: 'Failed',
      message:
        'slack: invalid config: workspace: no Slack workspace "ops" for namespace argo (known: default (no workspace)); the admin adds one with SLACK_OPS_BOT_TOKEN',
    });
  });

  it('not_in_channel: a hint to invite the app or grant chat:write.public', async () => {
    const { node } = await run({ channel: '#general', text: 'x' });
    expect(node?.phase).toBe('Failed');
    expect(node?.message).toMatch(
      /^slack: chat\.postMessage: the app is not a member of #general \(not_in_channel\): invite it \(\/invite @your-app\), or add the chat:write\.public scope/,
    );
  });

  it('a private channel the app is not in cannot be found by name; the message says how to fix it', async () => {
    const { node } = await run({ channel: '#release-managers', text: 'x' });
    expect(node?.message).toMatch(
      /^slack: channel #release-managers not found in workspace "default" \(channel_not_found\): .*invited/,
    );
  });

  it('a missing scope fails naming it (files:write for a file)', async () => {
    f.ws.bot.scopes.delete('files:write');
    try {
      expect(
        (await run({ channel: '#builds', text: 'x', file: { content: 'x', filename: 'x.txt' } })).node
          ?.message,
      ).toBe(
        'slack: files.getUploadURLExternal: the bot token of workspace "default" lacks the scope files:write ' +
          '(it has: chat:write,channels:read,groups:read,channels:history,groups:history) (missing_scope): add it under OAuth & Permissions and reinstall the app',
      );
      expect(f.ws.slack.posts(f.ws.builds).filter((m) => m.text === 'x')).toHaveLength(0);
    } finally {
      f.ws.bot.scopes.add('files:write');
    }
  });

  it('an archived channel, by ID: is_archived', async () => {
    const old = f.ws.team.channelByName('old-builds');
    expect((await run({ channel: old.id, text: 'x' })).node?.message).toBe(
      `slack: chat.postMessage: ${old.id} is archived (is_archived): unarchive it or choose another channel`,
    );
  });

  it('msg_too_long and invalid blocks say what Slack said', async () => {
    expect((await run({ channel: '#builds', text: 'x'.repeat(40_001) })).node?.message).toMatch(
      /\(msg_too_long; Slack allows 40,000 characters of text\)/,
    );
    expect(
      (await run({ channel: '#builds', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '' } }] }))
        .node?.message,
    ).toBe(
      'slack: chat.postMessage: Slack rejected the blocks (invalid_blocks): must be more than 0 characters [json-pointer:/blocks/0/text/text]; try them in Block Kit Builder',
    );
  });

  it('an edit of a message that does not exist: message_not_found', async () => {
    expect((await run({ channel: '#builds', text: 'x', updateTs: '1000000000.000001' })).node?.message).toBe(
      'slack: chat.update: message 1000000000.000001 not found in #builds (message_not_found): check updateTs and channel',
    );
  });

  it('429 whose Retry-After fits in the call: waits, posts once, Succeeded in the same call', async () => {
    f.ws.slack.rateLimit('chat.postMessage', 1);
    const started = Date.now();
    const reply = await run({ channel: '#builds', text: 'after a short rate limit' });
    expect(reply.node?.phase).toBe('Succeeded');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(f.ws.slack.posts(f.ws.builds).filter((m) => m.text === 'after a short rate limit')).toHaveLength(
      1,
    );
    expect(f.h.logs.some((l) => String(l.msg).includes('rate limited; waiting 1000 ms'))).toBe(true);
  });

  it('429 with a long Retry-After: Running with requeue = Retry-After, then posts once', async () => {
    f.ws.slack.rateLimit('chat.postMessage', 45);
    const body = { channel: '#builds', text: 'after a long rate limit' };
    const first = await run(body);
    expect(first).toEqual({
      node: {
        phase: 'Running',
        message:
          'slack: chat.postMessage: rate limited by Slack (retry after 45s); retrying in 45s (attempt 1 of 10)',
      },
      requeue: '45s',
    });
    expect((await run(body)).node?.phase).toBe('Succeeded');
    expect(f.ws.slack.posts(f.ws.builds).filter((m) => m.text === 'after a long rate limit')).toHaveLength(1);
  });

  it('Slack 5xx and network failures are transient (Running with a requeue), and the post is still made once', async () => {
    f.ws.slack.httpError('conversations.history', 503, 3);
    const body = { channel: '#builds', text: 'after a 503' };
    const first = await run(body);
    expect(first.node?.phase).toBe('Running');
    expect(first.node?.message).toMatch(
      /^slack: conversations\.history: HTTP 503 Service Unavailable; retrying in 5s/,
    );
    f.ws.slack.server.faults.add({ kind: 'reset' }, { match: (req) => req.path === '/api/chat.postMessage' });
    const second = await run(body);
    expect(second.node?.message).toMatch(
      /^slack: chat\.postMessage: request failed \((ECONNRESET|UND_ERR_SOCKET|connection failed)\); retrying in 10s/,
    );
    expect((await run(body)).node?.phase).toBe('Succeeded');
    expect(f.ws.slack.posts(f.ws.builds).filter((m) => m.text === 'after a 503')).toHaveLength(1);
  });

  it('a failure is not remembered: once the app is invited, the same call posts', async () => {
    const general = f.ws.team.channelByName('general');
    const body = { channel: '#general', text: 'after the invite' };
    expect((await run(body)).node?.phase).toBe('Failed');
    general.members.add(f.ws.bot.userId);
    expect((await run(body)).node?.phase).toBe('Succeeded');
    general.members.delete(f.ws.bot.userId);
  });
});

describe('slack plugin: credentials', () => {
  it('a rejected token: Failed with a hint naming the variable, and the token in no reply and no log line', async () => {
    const wrong = 'xoxb-1111111111-2222222222222-wrongwrongwrongwrongwrong';
    const f = await startSlackFixture({ SLACK_BOT_TOKEN: wrong });
    try {
      const res = await f.h.execute(slack({ channel: '#builds', text: 'x' }));
      expect(res.body.node?.phase).toBe('Failed');
      expect(res.body.node?.message).toBe(
        'slack: conversations.list: the bot token of workspace "default" was rejected (invalid_auth): check the Secret behind SLACK_BOT_TOKEN ' +
          "(it must hold the app's Bot User OAuth Token, xoxb-…, and the app must still be installed in the workspace)",
      );
      expect(res.text).not.toContain(wrong);
      expect(f.h.logText()).not.toContain(wrong);
      expect(f.h.logText()).not.toContain(wrong.slice(5));
      // LOG_LEVEL is debug in the harness: the client's request lines were logged, without the token.
      expect(f.h.logs.some((l) => l.component === 'slack-web-api')).toBe(true);
    } finally {
      await f.close();
    }
  });

  it('a named workspace uses its own token; a revoked one names its variable', async () => {
    const f = await startSlackFixture();
    const ops = f.ws.slack.addTeam('ops');
    const opsToken = 'xoxb-ops-0000000000-000000000000-opsopsopsops';
    const opsBot = f.ws.slack.addBot(ops, opsToken);
    const alerts = ops.addChannel('alerts', { members: [opsBot.userId] });
    const named = await startSlackFixture({ SLACK_BOT_TOKEN_OPS: opsToken }, f.ws);
    try {
      const res = await named.h.execute(slack({ channel: '#alerts', text: 'to ops', workspace: 'OPS' }));
      expect(outputs(res.body).channel).toBe(alerts.id);
      expect(alerts.messages).toHaveLength(1);
      opsBot.revoked = true;
      const revoked = await named.h.execute(slack({ channel: alerts.id, text: 'again', workspace: 'ops' }));
      expect(revoked.body.node?.message).toMatch(
        /^slack: conversations\.history: the bot token of workspace "ops" was rejected \(token_revoked\): check the Secret behind SLACK_OPS_BOT_TOKEN/,
      );
      expect(named.h.logText()).not.toContain(opsToken);
      expect(named.h.logText()).not.toContain(DEMO_BOT_TOKEN);
    } finally {
      await named.close();
      await f.close();
    }
  });

  it('0.1.0 names for one release: the former Secret and SLACK_BOT_TOKEN_<NAME> work, named in one warning at start', async () => {
    const f = await startSlackFixture();
    const ops = f.ws.slack.addTeam('ops');
    const opsToken = 'xoxb-ops-0000000000-000000000000-formerformer';
    ops.addChannel('alerts', { members: [f.ws.slack.addBot(ops, opsToken).userId] });
    const warnings = (h: PluginHarness) =>
      h.logs.filter((l) => String(l.msg).startsWith('deprecated names in use'));
    const former = await startSlackFixture(
      { SLACK_BOT_TOKEN: '', FORMER_SLACK_BOT_TOKEN: DEMO_BOT_TOKEN, SLACK_BOT_TOKEN_OPS: opsToken },
      f.ws,
    );
    const current = await startSlackFixture({ SLACK_OPS_BOT_TOKEN: opsToken }, f.ws);
    try {
      for (const h of [former.h, current.h]) {
        expect((await h.execute(slack({ channel: '#builds', text: 'default' }))).body.node?.phase).toBe(
          'Succeeded',
        );
        const res = await h.execute(slack({ channel: '#alerts', text: 'to ops', workspace: 'ops' }));
        expect(res.body.node?.phase).toBe('Succeeded');
      }
      expect(warnings(former.h)).toEqual([
        expect.objectContaining({
          level: 'warn',
          formerNames: [
            'SLACK_BOT_TOKEN (from the 0.1.0 Secret or ConfigMap)',
            'SLACK_BOT_TOKEN_OPS (now SLACK_OPS_BOT_TOKEN)',
          ],
        }),
      ]);
      expect(warnings(current.h)).toEqual([]);
      expect(former.h.logText()).not.toContain(DEMO_BOT_TOKEN);
    } finally {
      await former.close();
      await current.close();
      await f.close();
    }
  });

  it('NAMESPACE_SCOPES: a workspace open to some namespaces only; others see neither it nor its name', async () => {
    const f = await startSlackFixture();
    const ops = f.ws.slack.addTeam('ops');
    const opsToken = 'xoxb-ops-0000000000-000000000000-scopedscoped';
    const opsBot = f.ws.slack.addBot(ops, opsToken);
    const alerts = ops.addChannel('alerts', { members: [opsBot.userId] });
    const scoped = await startSlackFixture(
      { SLACK_BOT_TOKEN_OPS: opsToken, NAMESPACE_SCOPES: 'slack/ops=sre-*' },
      f.ws,
    );
    const from = (namespace: string) =>
      scoped.h.execute(
        slack(
          { channel: '#alerts', text: `from ${namespace}`, workspace: 'ops' },
          { workflow: { namespace } },
        ),
      );
    try {
      expect(outputs((await from('sre-oncall')).body).channel).toBe(alerts.id);
      const refused = await from('team-a');
      expect(refused.body.node).toEqual({
        phase: 'Failed',
        message:
          'slack: invalid config: workspace: no Slack workspace "ops" for namespace team-a (known: default (no workspace)); the admin adds one with SLACK_OPS_BOT_TOKEN',
      });
      expect(alerts.messages.map((m) => m.text)).toEqual(['from sre-oncall']);
      await expect(
        startHarness(chatNotifierPlugin, {
          env: { ...f.ws.env, SLACK_BOT_TOKEN_OPS: opsToken, NAMESPACE_SCOPES: 'slack/sre=sre-*' },
        }),
      ).rejects.toThrow(
        'NAMESPACE_SCOPES: "slack/sre=sre-*": no slack destination named sre is configured (configured: default, ops)',
      );
    } finally {
      await scoped.close();
      await f.close();
    }
  });

  it('bad admin configuration stops the sidecar at start-up, naming the variable and never the value', async () => {
    const attempt = startHarness(chatNotifierPlugin, {
      env: {
        SLACK_BOT_TOKEN: 'Bearer xoxb-pasted-with-prefix',
        SLACK_BOT_TOKEN_EU: 'not-a-token-value',
        SLACK_API_URL: 'slack.com/api',
        SLACK_DEDUP_LOOKBACK: '-1',
      },
    });
    const err = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EnvValidationError);
    const message = (err as Error).message;
    expect(message).toContain(
      'SLACK_BOT_TOKEN: must be a Slack bot token (xoxb-…) without spaces or line breaks',
    );
    expect(message).toContain('SLACK_BOT_TOKEN_EU: must be a Slack bot token (xoxb-…)');
    expect(message).toContain('SLACK_API_URL:');
    expect(message).toContain('SLACK_DEDUP_LOOKBACK:');
    expect(message).not.toContain('pasted-with-prefix');
    expect(message).not.toContain('not-a-token-value');
  });

  it('a token with a trailing newline (a Secret made with echo) is accepted', async () => {
    const f = await startSlackFixture({ SLACK_BOT_TOKEN: `${DEMO_BOT_TOKEN}\n` });
    try {
      expect((await f.h.execute(slack({ channel: '#builds', text: 'newline' }))).body.node?.phase).toBe(
        'Succeeded',
      );
    } finally {
      await f.close();
    }
  });
});
