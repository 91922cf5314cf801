import { createMemoryLogger, loadEnv, Redactor } from '@app/plugin-kit';
import { SlackApiStandIn } from '../../../stand-ins/slack/slack-api.stand-in.js';
import type { Team } from '../../../stand-ins/slack/slack-state.js';
import { providerContext } from '@app/plugin-kit/providers/provider-context.js';
import { NotifierEnv } from '../../config/notifier.env.js';
import { CallBudget } from './call-budget.js';
import { ChannelResolver } from './channel-resolver.js';
import { SlackClientFactory } from './slack-client.factory.js';
import type { SlackSettings } from './slack-settings.js';

const TOKEN = 'xoxb-resolver-0000-aaaaaaaaaaaa';

describe('ChannelResolver (against the stand-in, through the real client)', () => {
  const slack = new SlackApiStandIn();
  let team: Team;
  const { logger } = createMemoryLogger(new Redactor());
  const budget = () => new CallBudget(new AbortController().signal);
  const listCalls = () => slack.okCalls('conversations.list').length;
  const setup = (ttl = '10m') => {
    const env = loadEnv(NotifierEnv, {
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_API_URL: slack.apiUrl,
      SLACK_CHANNEL_CACHE_TTL: ttl,
    });
    const context = providerContext<SlackSettings>('slack', env.contextOf('slack'), new Redactor(), logger);
    const client = new SlackClientFactory(context).forWorkspace(undefined, 'argo');
    return { resolver: new ChannelResolver(context), client };
  };

  beforeAll(async () => {
    await slack.start();
    team = slack.addTeam('acme');
    const bot = slack.addBot(team, TOKEN);
    for (let i = 0; i < 9; i++) team.addChannel(`team-${i}`, { members: [bot.userId] });
    team.addChannel('builds', { members: [bot.userId] });
    slack.listPageCap = 2;
  });
  afterAll(() => slack.close());
  beforeEach(() => (slack.apiCalls.length = 0));

  it('uses IDs as they are, without a call', async () => {
    const { resolver, client } = setup();
    expect(await resolver.resolve(client, 'C0123456789', budget(), logger)).toEqual({
      id: 'C0123456789',
      label: 'C0123456789',
    });
    expect(listCalls()).toBe(0);
  });

  it('follows cursors until the name turns up, stops there, and resumes from the cursor for the next name', async () => {
    const { resolver, client } = setup();
    const first = await resolver.resolve(client, '#team-2', budget(), logger);
    expect(first).toEqual({ id: team.channelByName('team-2').id, label: '#team-2' });
    expect(listCalls()).toBe(2);
    expect(slack.okCalls('conversations.list')[0].args).toMatchObject({
      types: 'public_channel,private_channel',
      exclude_archived: 'true',
      limit: '200',
    });
    await resolver.resolve(client, 'builds', budget(), logger);
    expect(listCalls()).toBe(5);
    expect(slack.okCalls('conversations.list')[2].args.cursor).toBeDefined();
    await resolver.resolve(client, '#TEAM-0', budget(), logger);
    expect(listCalls()).toBe(5);
    expect((await resolver.resolve(client, team.channelByName('builds').id, budget(), logger)).label).toBe(
      '#builds',
    );
  });

  it('a name missing from a complete scan fails at once; a new scan happens only after a pause', async () => {
    const { resolver, client } = setup();
    await expect(resolver.resolve(client, '#nope', budget(), logger)).rejects.toThrow(
      /channel #nope not found in workspace "default"/,
    );
    const scanned = listCalls();
    await expect(resolver.resolve(client, '#nope', budget(), logger)).rejects.toThrow(/not found/);
    expect(listCalls()).toBe(scanned);
    const later = Date.now() + 11_000;
    resolver.now = () => later;
    team.addChannel('nope');
    expect((await resolver.resolve(client, '#nope', budget(), logger)).label).toBe('#nope');
  });

  it('forgets everything after the TTL', async () => {
    const { resolver, client } = setup('1s');
    await resolver.resolve(client, '#team-0', budget(), logger);
    const before = listCalls();
    const later = Date.now() + 1500;
    resolver.now = () => later;
    await resolver.resolve(client, '#team-0', budget(), logger);
    expect(listCalls()).toBe(before + 1);
  });

  it('concurrent lookups in one workspace share one scan', async () => {
    const { resolver, client } = setup();
    await Promise.all(
      ['#team-1', '#team-1', '#team-1', '#team-3'].map((n) => resolver.resolve(client, n, budget(), logger)),
    );
    expect(listCalls()).toBe(2);
  });

  it('a rate limit in the middle of a scan keeps what was read: the retry continues from the cursor', async () => {
    const { resolver, client } = setup();
    await resolver.resolve(client, '#team-0', budget(), logger);
    slack.rateLimit('conversations.list', 60, 1);
    await expect(resolver.resolve(client, '#builds', budget(), logger)).rejects.toMatchObject({
      kind: 'transient',
      retryAfterMs: 60_000,
    });
    slack.apiCalls.length = 0;
    expect((await resolver.resolve(client, '#builds', budget(), logger)).label).toBe('#builds');
    expect(slack.okCalls('conversations.list')[0].args.cursor).toBeDefined();
    expect(listCalls()).toBe(4);
  });

  it('without channels:read / groups:read: names the scope and suggests an ID', async () => {
    const narrow = slack.addBot(team, 'xoxb-resolver-narrow-0000', ['chat:write']);
    const env = loadEnv(NotifierEnv, { SLACK_BOT_TOKEN: narrow.token, SLACK_API_URL: slack.apiUrl });
    const context = providerContext<SlackSettings>('slack', env.contextOf('slack'), new Redactor(), logger);
    const client = new SlackClientFactory(context).forWorkspace(undefined, 'argo');
    await expect(new ChannelResolver(context).resolve(client, '#builds', budget(), logger)).rejects.toThrow(
      /lacks the scope channels:read,groups:read .*\(missing_scope\).*; it is needed to look up channel names \(or give the channel ID instead\)$/,
    );
  });
});
