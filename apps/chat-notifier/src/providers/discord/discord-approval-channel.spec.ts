import { NamespaceScopes, PluginConfigError, Redactor, UpstreamError } from '@app/plugin-kit';
import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import {
  DiscordStandIn,
  type DiscordChannel,
  type DiscordUserEntry,
} from '../../../stand-ins/discord/discord.stand-in.js';
import type { PostedRequest } from '../../approvals/approval-channel.js';
import { DiscordApprovalConfig } from './discord-approval-config.dto.js';
import { DiscordApprovalChannels, requestTag } from './discord-approval-channel.js';
import { readDiscordBots } from './discord-bot-settings.js';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.stand-in.bot-token-for-approvals';
const signal = new AbortController().signal;
const access = { scopes: NamespaceScopes.unrestricted, namespace: 'argo' };

function config(body: object): DiscordApprovalConfig {
  const result = validatePluginConfig(DiscordApprovalConfig, body);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
}

describe('DiscordApprovalChannel against the Discord stand-in', () => {
  let discord: DiscordStandIn;
  let bot: DiscordUserEntry;
  let alice: DiscordUserEntry;
  let bob: DiscordUserEntry;
  let helper: DiscordUserEntry;
  let deploys: DiscordChannel;
  let secret: DiscordChannel;

  beforeAll(async () => {
    discord = await new DiscordStandIn().start();
    deploys = discord.addChannel();
    secret = discord.addChannel();
    bot = discord.addBot('argo', TOKEN, [deploys]);
    alice = discord.addUser('alice');
    bob = discord.addUser('bob');
    helper = discord.addUser('helper', { bot: true });
  });
  afterAll(() => discord.close());

  const channels = (
    env: Record<string, string> = { DISCORD_BOT_TOKEN: TOKEN, DISCORD_API_URL: `${discord.url}/api/v10` },
  ) => new DiscordApprovalChannels(readDiscordBots(env).bots, true, new Redactor(), 2000);
  const approvalChannel = (channel = deploys.id) =>
    channels().channelFor(config({ channel, text: 'Deploy 1.4.2?', approvers: [`<@${alice.id}>`] }), access);
  const request = (marker: string) => approvalChannel().post({ text: 'Deploy 1.4.2?', marker }, signal);
  const answers = async (posted: PostedRequest) => {
    const state = await approvalChannel().read(posted, signal);
    if (state.kind !== 'present') throw new Error(`not present: ${state.kind}`);
    return state.answers;
  };

  it('posts once: a restarted reader finds the message by its tag; the send carries a nonce Discord enforces', async () => {
    const first = await request('gate-once');
    expect(await request('gate-once')).toEqual({ ...first, found: true });
    expect(first).toEqual({
      ref: { channel: deploys.id, message: expect.stringMatching(/^\d+$/) },
      url: `https://discord.com/channels/1100000000000000001/${deploys.id}/${first.ref.message}`,
      author: bot.id,
      postedAt: expect.any(Number),
      found: false,
    });
    const mine = discord.in(deploys.id).filter((m) => m.content.includes(requestTag('gate-once')));
    expect(mine).toHaveLength(1);
    // The time the id carries is the message's `timestamp`, as in Discord's snowflakes.
    expect(Math.abs(first.postedAt - Date.parse(mine[0]!.timestamp))).toBeLessThan(5);
    const sent = discord.server.calls.find((c) => c.method === 'POST' && c.path.endsWith('/messages'))!;
    expect(sent.headers.authorization).toBe(`Bot ${TOKEN}`);
    expect(sent.body).toMatchObject({ enforce_nonce: true, nonce: expect.stringMatching(/^[0-9a-f]{25}$/) });
  });

  it('a repeated send with the same nonce returns the message already sent (two replicas at once)', async () => {
    const fresh = () =>
      channels().channelFor(config({ channel: deploys.id, text: 'x', approvers: alice.id }), access);
    const [a, b] = await Promise.all([
      fresh().post({ text: 'x', marker: 'race' }, signal),
      fresh().post({ text: 'x', marker: 'race' }, signal),
    ]);
    expect(a.ref).toEqual(b.ref);
    expect(discord.in(deploys.id).filter((m) => m.content.includes(requestTag('race')))).toHaveLength(1);
  });

  it('an approver who reacts after two reads is seen from then on; a withdrawn reaction is gone', async () => {
    const posted = await request('gate-react');
    discord.script.after(2, (id) => discord.react(id, alice, '👍'), posted.ref.message);
    expect(await answers(posted)).toEqual([]);
    expect(await answers(posted)).toEqual([{ user: alice.id, vote: 'approve', at: 0, bot: false }]);
    discord.unreact(posted.ref.message!, alice, '👍');
    expect(await answers(posted)).toEqual([]);
  });

  it('👍 ✅ approve, 👎 ❌ reject, other emoji nothing; bots are marked; unused emoji cost no call', async () => {
    const posted = await request('gate-mixed');
    const id = posted.ref.message!;
    discord.react(id, bob, '❌');
    discord.react(id, alice, '🎉');
    discord.react(id, helper, '✅');
    discord.server.resetCalls();
    expect(await answers(posted)).toEqual([
      { user: helper.id, vote: 'approve', at: 0, bot: true },
      { user: bob.id, vote: 'reject', at: 0, bot: false },
    ]);
    expect(discord.server.calls.map((c) => decodeURIComponent(c.path.split('/').pop()!))).toEqual([
      id,
      '✅',
      '❌',
    ]);
  });

  it('reads every page of reactions (100 a page, after the last user id)', async () => {
    const posted = await request('gate-pages');
    const crowd = Array.from({ length: 230 }, (_, i) => discord.addUser(`fan${i}`));
    for (const user of crowd) discord.react(posted.ref.message!, user, '👍');
    const read = await answers(posted);
    expect(new Set(read.map((a) => a.user))).toEqual(new Set(crowd.map((u) => u.id)));
    expect(
      discord.server.count(
        'GET',
        `/api/v10/channels/${deploys.id}/messages/${posted.ref.message}/reactions/`,
      ),
    ).toBe(3);
  });

  it('a deleted request reads as deleted; nobody but the bot can edit it', async () => {
    const posted = await request('gate-deleted');
    discord.script.after(1, (id) => discord.deleteMessage(id), posted.ref.message);
    expect(await approvalChannel().read(posted, signal)).toEqual({ kind: 'deleted' });

    const other = discord.addBot('other', 'other-bot-token-0000000000000000', [deploys]);
    const kept = await request('gate-kept');
    const res = await fetch(`${discord.url}/api/v10/channels/${deploys.id}/messages/${kept.ref.message}`, {
      method: 'PATCH',
      headers: { Authorization: `Bot ${other.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'Deploy to staging?' }),
    });
    expect([res.status, await res.json()]).toEqual([
      403,
      { message: 'Cannot edit a message authored by another user', code: 50005 },
    ]);
  });

  it('conclude edits the message once, keeping the request', async () => {
    const posted = await request('gate-conclude');
    await approvalChannel().conclude(
      posted,
      { decision: 'Approved by <@1> at 12:00', requestText: 'Deploy 1.4.2?' },
      signal,
    );
    await approvalChannel().conclude(
      posted,
      { decision: 'Approved by <@1> at 12:00', requestText: 'Deploy 1.4.2?' },
      signal,
    );
    const message = discord.in(deploys.id).find((m) => m.id === posted.ref.message)!;
    expect(message.content).toBe(
      `Deploy 1.4.2?\n${requestTag('gate-conclude')}\n\nApproved by <@1> at 12:00`,
    );
    expect(
      discord.server.count('PATCH', `/api/v10/channels/${deploys.id}/messages/${posted.ref.message}`),
    ).toBe(1);
  });

  it('conclude shortens a long request to fit the decision, never cutting a character outside the BMP in half', async () => {
    for (const offset of [0, 1]) {
      const text = `${'.'.repeat(offset)}${'🚀'.repeat(985)}`;
      const posted = await approvalChannel().post({ text, marker: `gate-long-${offset}` }, signal);
      await approvalChannel().conclude(
        posted,
        { decision: 'Approved by <@1> at 12:00: ship it today', requestText: text },
        signal,
      );
      const { content } = discord.in(deploys.id).find((m) => m.id === posted.ref.message)!;
      expect([offset, content.length <= 2000, content]).toEqual([
        offset,
        true,
        expect.stringMatching(/^\.?(🚀)+…\n\nApproved by <@1> at 12:00: ship it today$/u),
      ]);
    }
  });

  it('a 429 is transient with its Retry-After; a wrong token and a closed channel fail naming what to do', async () => {
    const posted = await request('gate-429');
    discord.rateLimitBot('GET', 2);
    await expect(approvalChannel().read(posted, signal)).rejects.toMatchObject({
      kind: 'transient',
      status: 429,
      retryAfterMs: 2000,
    });
    const wrong = channels({
      DISCORD_BOT_TOKEN: 'wrong-token-000000000000000000',
      DISCORD_API_URL: `${discord.url}/api/v10`,
    });
    await expect(
      wrong
        .channelFor(config({ channel: deploys.id, text: 'x', approvers: alice.id }), access)
        .read(posted, signal),
    ).rejects.toThrow(/401 Unauthorized: 401: Unauthorized \(code 0\): .*DISCORD_BOT_TOKEN$/);
    const closed = await approvalChannel(secret.id)
      .post({ text: 'x', marker: 'm' }, signal)
      .catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(UpstreamError);
    expect(String(closed)).toMatch(/403 Forbidden: Missing Access \(code 50001\): the bot lacks access/);
  });
});

describe('Discord approval settings and config', () => {
  it('webhooks only: a gate fails saying a webhook cannot read', () => {
    const channels = new DiscordApprovalChannels(new Map(), true, new Redactor(), 1000);
    const block = config({ channel: '123456789012345678', text: 'x', approvers: '123456789012345678' });
    expect(() =>
      channels.channelFor(block, { scopes: NamespaceScopes.unrestricted, namespace: 'argo' }),
    ).toThrow(
      new PluginConfigError(
        'discord: approval gates need a bot (the admin sets DISCORD_BOT_TOKEN): a webhook can post but cannot read reactions',
      ),
    );
  });

  it('bots from DISCORD_BOT_TOKEN and DISCORD_<NAME>_BOT_TOKEN; Discord API unless DISCORD_API_URL; problems named', () => {
    const read = readDiscordBots({
      DISCORD_BOT_TOKEN: 'tok-default',
      DISCORD_OPS_BOT_TOKEN: 'tok-ops',
      DISCORD_OPS_API_URL: 'http://127.0.0.1:9/api/v10/',
      DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/1/x',
      DISCORD_QA_API_URL: 'http://127.0.0.1:9/api',
      DISCORD_BAD_BOT_TOKEN: 'has space',
    });
    expect([...read.bots]).toEqual([
      ['default', { token: 'tok-default', apiUrl: 'https://discord.com/api/v10' }],
      ['ops', { token: 'tok-ops', apiUrl: 'http://127.0.0.1:9/api/v10' }],
    ]);
    expect(read.problems).toEqual([
      'DISCORD_BAD_BOT_TOKEN: must not contain spaces or line breaks',
      'DISCORD_QA_BOT_TOKEN: is required with DISCORD_QA_API_URL',
    ]);
  });

  it('approvers are user IDs or mentions of them; roles and names are refused', () => {
    expect(
      config({
        channel: '123456789012345678',
        text: 'x',
        approvers: '<@123456789012345678>, <@!223456789012345678>',
      }).approvers,
    ).toEqual(['123456789012345678', '223456789012345678']);
    const result = validatePluginConfig(DiscordApprovalConfig, {
      channel: '123456789012345678',
      text: 'x',
      approvers: '<@&123456789012345678>',
    });
    expect(result.ok ? [] : result.problems).toEqual([
      "approvers: must be 1 to 50 user IDs (123… or <@123…>); roles, names and everyone/here cannot approve (a bot cannot list a role's members without the privileged Server Members intent)",
    ]);
  });
});
