import { startDiscordDemo } from '../demo/discord.js';
import { startGoogleChatDemo } from '../demo/google-chat.js';
import { startMattermostDemo } from '../demo/mattermost.js';
import { startPagerDutyDemo } from '../demo/pagerduty.js';
import { startTeamsBotDemo, startTeamsDemo } from '../demo/teams.js';
import { startSlackDemoWorkspace } from '../demo/upstreams.js';
import { looksSecret } from '@app/plugin-kit';
import { notify, startNotifier } from './support.js';
import type { ProviderStandIn } from '@app/local-agent';

/** Each HTTP provider's stand-in, a body, and the credential forms it sends (all must stay masked). */
const cases = [
  {
    provider: 'mattermost',
    start: async () => {
      const d = await startMattermostDemo();
      return {
        standIn: d.mm as ProviderStandIn,
        env: d.env,
        close: d.close,
        secrets: [d.env.MATTERMOST_TOKEN],
      };
    },
    body: { channel: 'builds', team: 'eng', text: 'x' },
  },
  {
    provider: 'discord',
    start: async () => {
      const d = await startDiscordDemo();
      return { standIn: d.discord as ProviderStandIn, env: d.env, close: d.close, secrets: [d.webhookToken] };
    },
    body: { text: 'x' },
  },
  {
    provider: 'pagerduty',
    start: async () => {
      const d = await startPagerDutyDemo();
      return { standIn: d.pd as ProviderStandIn, env: d.env, close: d.close, secrets: [d.routingKey] };
    },
    body: { text: 'x' },
  },
  {
    provider: 'googleChat',
    start: async () => {
      const d = await startGoogleChatDemo();
      return {
        standIn: d.chat as ProviderStandIn,
        env: d.env,
        close: d.close,
        secrets: [d.space.webhookKey, d.space.webhookToken],
      };
    },
    body: { text: 'x' },
  },
  {
    provider: 'teams',
    start: async () => {
      const d = await startTeamsDemo();
      return { standIn: d.teams as ProviderStandIn, env: d.env, close: d.close, secrets: [d.flow.sig] };
    },
    body: { text: 'x' },
  },
];

/** Every credential as an operator may carelessly configure it: surrounded by spaces and a newline. */
const padded = (env: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, looksSecret(k) && v ? `  ${v}\n` : v]));

describe('hostile stand-in modes: an upstream that echoes the request in its error', () => {
  it.each(cases.map((c) => [c.provider, c] as const))(
    '%s: the step fails; no credential in the node message or the logs (credentials configured with whitespace)',
    async (_name, c) => {
      const up = await c.start();
      const f = await startNotifier(padded(up.env));
      try {
        up.standIn.hostile = { mode: 'echo', status: 400 };
        const reply = await f.h.execute(notify(c.provider, c.body));
        expect(reply.body.node?.phase).toBe('Failed');
        expect(reply.body.node?.message).toMatch(/bad request/);
        const everything = JSON.stringify(reply.body) + f.h.logText();
        for (const secret of up.secrets) expect(everything).not.toContain(secret);
      } finally {
        await f.close();
        await up.close();
      }
    },
  );
});

describe('hostile stand-in modes: an upstream that answers a body far over UPSTREAM_MAX_BODY', () => {
  it.each(cases.flatMap((c) => [200, 500].map((status) => [c.provider, status, c] as const)))(
    '%s (%i): the step fails naming the cap; the sidecar reads no more than it allows',
    async (_name, status, c) => {
      const up = await c.start();
      const f = await startNotifier({ ...up.env, UPSTREAM_MAX_BODY: String(64 * 1024) });
      try {
        up.standIn.hostile = { mode: 'huge', status, bytes: 8 * 1024 * 1024 };
        const reply = await f.h.execute(notify(c.provider, c.body));
        expect(reply.body.node?.phase).toBe('Failed');
        expect(reply.body.node?.message).toContain('reply larger than 64 KiB');
      } finally {
        await f.close();
        await up.close();
      }
    },
  );
});

/** A stand-in of `cases`, by provider. */
const startOf = (provider: string) => cases.find((c) => c.provider === provider)!.start;

/** The providers whose reply names what they sent (an id the outputs carry), each after a first good call. */
const idCases: Array<{
  provider: string;
  upstream: string;
  start: () => Promise<{ standIn: ProviderStandIn; env: Record<string, string>; close(): Promise<void> }>;
  body: Record<string, unknown>;
  reply?: object;
}> = [
  { provider: 'mattermost', upstream: 'mattermost', start: startOf('mattermost'), body: cases[0]!.body },
  { provider: 'discord', upstream: 'discord', start: startOf('discord'), body: { text: 'x' } },
  { provider: 'googleChat', upstream: 'google chat', start: startOf('googleChat'), body: { text: 'x' } },
  {
    provider: 'googleChat',
    upstream: 'google chat',
    start: startOf('googleChat'),
    body: { space: 'spaces/AAAAreleases', text: 'x' },
  },
  {
    provider: 'teams',
    upstream: 'teams bot',
    start: async () => {
      const d = await startTeamsBotDemo();
      return { standIn: d.bot, env: d.env, close: d.close };
    },
    body: { channel: '19:5c1f0e2a9b7d4e3f8a6c0d1b2e3f4a5b@thread.tacv2', text: 'x' },
  },
  {
    provider: 'slack',
    upstream: 'slack',
    // Slack answers HTTP 200 and `ok`; the client checks `ok` itself.
    reply: { ok: true },
    start: async () => {
      const d = await startSlackDemoWorkspace();
      return { standIn: d.slack, env: d.env, close: d.close };
    },
    body: { channel: '#builds', text: 'x' },
  },
];

describe('hostile stand-in modes: a reply without the fields the plugin relies on', () => {
  it.each(idCases.map((c) => [c.provider, JSON.stringify(c.body), c] as const))(
    '%s %s: an answer of {} is a Failed node naming the upstream, never a success',
    async (_name, _body, c) => {
      const up = await c.start();
      const f = await startNotifier(up.env);
      try {
        // A first good call: channels, tokens and clients are in place; the broken reply comes after.
        const good = await f.h.execute(notify(c.provider, { ...c.body, key: 'good' }));
        expect(good.body.node?.phase).toBe('Succeeded');
        up.standIn.hostile = { mode: 'empty', body: c.reply ?? {} };
        const broken = await f.h.execute(notify(c.provider, { ...c.body, key: 'broken' }));
        expect(broken.body.node).toEqual({
          phase: 'Failed',
          message: expect.stringMatching(new RegExp(`^${c.upstream}: .*: no [A-Za-z_, ]+ in the reply$`)),
        });
        expect(f.h.logText()).not.toContain('internal error');
      } finally {
        await f.close();
        await up.close();
      }
    },
  );
});
