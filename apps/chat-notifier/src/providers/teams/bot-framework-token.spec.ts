import { Redactor, UpstreamError } from '@app/plugin-kit';
import { TeamsBotStandIn } from '../../../stand-ins/teams/teams-bot.stand-in.js';
import { BotFrameworkToken, RENEW_BEFORE_MS } from './bot-framework-token.js';

describe('BotFrameworkToken: client credentials against Entra ID, cached until shortly before expiry', () => {
  let entra: TeamsBotStandIn;
  beforeEach(async () => {
    entra = await new TeamsBotStandIn().start();
  });
  afterEach(() => entra.close());

  it('asks once, shares one request between concurrent callers, renews 5 minutes before expires_in', async () => {
    const app = entra.registerBot();
    let now = 1_000_000;
    const token = new BotFrameworkToken(app, entra.url, 2000, new Redactor(), () => now);
    const [a, b] = await Promise.all([token.get(), token.get()]);
    expect(a).toBe(b);
    expect(entra.issued).toEqual([a]);
    now += entra.tokenLifetimeSeconds * 1000 - RENEW_BEFORE_MS - 1;
    expect(await token.get()).toBe(a);
    now += 1;
    expect(await token.get()).not.toBe(a);
    expect(entra.issued).toHaveLength(2);
  });

  it('a dropped token (the connector refused it) is asked for again', async () => {
    const token = new BotFrameworkToken(entra.registerBot(), entra.url, 2000, new Redactor());
    const first = await token.get();
    token.drop(first);
    expect(await token.get()).not.toBe(first);
  });

  it('signs in at the tenant of a single-tenant bot; the wrong tenant is refused with a hint', async () => {
    const app = entra.registerBot('contoso.onmicrosoft.com');
    await expect(new BotFrameworkToken(app, entra.url, 2000, new Redactor()).get()).resolves.toMatch(/^eyJ/);
    const multi = { ...app, tenant: 'botframework.com' };
    const err = (await new BotFrameworkToken(multi, entra.url, 2000, new Redactor())
      .get()
      .catch((e: unknown) => e)) as UpstreamError;
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.transient).toBe(false);
    expect(err.message).toMatch(
      /→ 400 Bad Request: AADSTS700016: Application with identifier '.*' was not found in the directory 'botframework\.com'\. \(unauthorized_client\): Entra ID refused the bot's app: the admin checks TEAMS_BOT_APP_ID/,
    );
  });

  it('registers the secret in every form it is sent in (the form body encodes ~ as %7E) and each token', async () => {
    const app = entra.registerBot();
    expect(app.password).toContain('~');
    const redactor = new Redactor();
    const token = await new BotFrameworkToken(app, entra.url, 2000, redactor).get();
    const form = new URLSearchParams({ client_secret: app.password, scope: 'x' }).toString();
    const sent = `${form} Bearer ${token}`;
    expect(form).toContain('%7E');
    expect(redactor.redact(sent)).toBe('client_secret=[REDACTED]&scope=x Bearer [REDACTED]');
    expect(redactor.redact(app.password)).toBe('[REDACTED]');
  });
});
