import { EnvValidationError, loadEnv } from '@app/plugin-kit';
import { generateKeyPairSync } from 'node:crypto';
import { discord } from '../providers/discord/index.js';
import { email } from '../providers/email/index.js';
import { googleChat } from '../providers/google-chat/index.js';
import { mattermost } from '../providers/mattermost/index.js';
import { slack } from '../providers/slack/index.js';
import { teams } from '../providers/teams/index.js';
import { NotifierEnv } from './notifier.env.js';

const TOKEN = 'xoxb-1234-5678-abcdefabcdef';

const problems = (source: Record<string, string>): string[] => {
  try {
    loadEnv(NotifierEnv, source);
  } catch (err) {
    if (err instanceof EnvValidationError) return err.problems;
    throw err;
  }
  return [];
};

describe('NotifierEnv', () => {
  it('Slack needs only the bot token; everything else has a default', () => {
    const env = loadEnv(NotifierEnv, { SLACK_BOT_TOKEN: TOKEN });
    expect(env).toMatchObject({
      SLACK_API_URL: 'https://slack.com/api/',
      SLACK_DEDUP_LOOKBACK: 200,
      SLACK_CHANNEL_CACHE_TTL: '10m',
      SLACK_REQUEST_TIMEOUT: '8s',
    });
    expect([...env.settingsOf(slack).workspaces]).toEqual([['default', TOKEN]]);
    expect(problems({})).toEqual([
      expect.stringMatching(
        /^no provider is configured: set one of: SLACK_BOT_TOKEN \(slack\); TEAMS_WEBHOOK_URL/,
      ),
    ]);
  });

  it('a named workspace alone enables Slack (no default workspace then)', () => {
    const env = loadEnv(NotifierEnv, { SLACK_BOT_TOKEN_OPS: 'xoxb-ops-1' });
    expect([...env.settingsOf(slack).workspaces]).toEqual([['ops', 'xoxb-ops-1']]);
  });

  it('reads named workspaces from SLACK_BOT_TOKEN_<NAME> (lower-cased names), trimming a trailing newline', () => {
    const env = loadEnv(NotifierEnv, {
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_BOT_TOKEN_OPS: 'xoxb-ops-1\n',
      SLACK_BOT_TOKEN_EU_PROD: 'xoxb-eu-2',
      SLACK_BOT_TOKEN_EMPTY: '',
    });
    expect(Object.fromEntries(env.settingsOf(slack).workspaces)).toEqual({
      default: TOKEN,
      ops: 'xoxb-ops-1',
      eu_prod: 'xoxb-eu-2',
    });
  });

  it('names destinations <PROVIDER>_<NAME>_<SETTING> everywhere; the 0.1.0 spelling is still read, and reported', () => {
    const discordUrl = 'https://discord.com/api/webhooks/123456789012345678/AbC-def_ghi123456789012345';
    const env = loadEnv(NotifierEnv, {
      SLACK_OPS_BOT_TOKEN: 'xoxb-ops-1',
      MATTERMOST_EU_URL: 'https://eu.example.com',
      MATTERMOST_EU_TOKEN: 'tok-eu',
      MATTERMOST_URL_US: 'https://us.example.com',
      MATTERMOST_US_TOKEN: 'tok-us',
      DISCORD_ALERTS_WEBHOOK_URL: discordUrl,
      PAGERDUTY_PAYMENTS_ROUTING_KEY: 'R0UT1NGKEY0123456789abcdefABCDEF',
      SMTP_OPS_URL: 'smtps://relay.example.com',
      SMTP_OPS_FROM: 'Argo <argo@example.com>',
    });
    expect([...env.settingsOf(slack).workspaces.keys()]).toEqual(['ops']);
    expect([...env.settingsOf(mattermost).servers.keys()]).toEqual(['eu', 'us']);
    expect([...env.settingsOf(discord).webhooks.keys()]).toEqual(['alerts']);
    expect([...env.settingsOf(email).servers.keys()]).toEqual(['ops']);
    expect(env.configuredProviders()).toEqual(['slack', 'mattermost', 'discord', 'email', 'pagerduty']);
    expect(env.formerNames).toEqual(['MATTERMOST_URL_US (now MATTERMOST_US_URL)']);
    // A server whose variables are all 0.1.0's is named that way in its problems.
    expect(problems({ MATTERMOST_EU_URL: 'https://eu', MATTERMOST_URL_US: 'https://us' })).toEqual([
      'MATTERMOST_EU_TOKEN: is required with MATTERMOST_EU_URL',
      'MATTERMOST_TOKEN_US: is required with MATTERMOST_URL_US',
    ]);
  });

  it('names every bad variable and never its value', () => {
    const found = problems({
      SLACK_BOT_TOKEN: 'Bearer xoxb-secret-1',
      SLACK_BOT_TOKEN_X: 'secret-2',
      'SLACK_BOT_TOKEN_bad-name': 'xoxb-3',
      SLACK_BOT_TOKEN_DEFAULT: 'xoxb-4',
      SLACK_DEDUP_LOOKBACK: '5000',
      SLACK_CHANNEL_CACHE_TTL: 'forever',
      SLACK_REQUEST_TIMEOUT: '1m',
      SLACK_API_URL: 'ftp://slack.com/api',
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'SLACK_BOT_TOKEN: must be a Slack bot token (xoxb-…) without spaces or line breaks',
        'SLACK_BOT_TOKEN_X: must be a Slack bot token (xoxb-…)',
        'SLACK_BOT_TOKEN_bad-name: the name in it must be upper-case letters and digits, words joined by single underscores (SLACK_OPS_BOT_TOKEN)',
        'SLACK_BOT_TOKEN_DEFAULT: "default" is the upstream of SLACK_BOT_TOKEN; pick another name',
        'SLACK_DEDUP_LOOKBACK: must not be greater than 1000',
      ]),
    );
    expect(found.some((p) => p.startsWith('SLACK_CHANNEL_CACHE_TTL: '))).toBe(true);
    expect(found.some((p) => p.startsWith('SLACK_REQUEST_TIMEOUT: '))).toBe(true);
    expect(found.some((p) => p.startsWith('SLACK_API_URL: '))).toBe(true);
    expect(found.join('\n')).not.toMatch(/secret-1|secret-2/);
  });

  it('Mattermost: URL and token in pairs, the default one and named ones (MATTERMOST_URL_<NAME>)', () => {
    const env = loadEnv(NotifierEnv, {
      MATTERMOST_URL: 'https://chat.example.com/',
      MATTERMOST_TOKEN: 'tok-default\n',
      MATTERMOST_URL_OPS: 'https://ops.example.com',
      MATTERMOST_TOKEN_OPS: 'tok-ops',
    });
    expect(Object.fromEntries(env.settingsOf(mattermost).servers)).toEqual({
      default: { url: 'https://chat.example.com', token: 'tok-default' },
      ops: { url: 'https://ops.example.com', token: 'tok-ops' },
    });
    expect(env.configuredProviders()).toEqual(['mattermost']);
    const found = problems({
      MATTERMOST_URL: 'chat.example.com',
      MATTERMOST_TOKEN: 'secret-9',
      MATTERMOST_URL_EU: 'https://eu.example.com',
      MATTERMOST_TOKEN_US: 'secret-8',
    });
    expect(found).toEqual([
      'MATTERMOST_URL: must be an http(s) URL',
      'MATTERMOST_TOKEN_EU: is required with MATTERMOST_URL_EU',
      'MATTERMOST_URL_US: is required with MATTERMOST_TOKEN_US',
    ]);
  });

  it('Discord: a webhook URL as Discord shows it, the default one and named ones', () => {
    const url = 'https://discord.com/api/webhooks/123456789012345678/AbC-def_ghi123456789012345';
    const env = loadEnv(NotifierEnv, {
      DISCORD_WEBHOOK_URL: url,
      DISCORD_WEBHOOK_URL_ALERTS: `${url.replace('/api/', '/api/v10/')}/`,
    });
    expect(Object.fromEntries(env.settingsOf(discord).webhooks)).toEqual({
      default: {
        apiUrl: 'https://discord.com/api',
        id: '123456789012345678',
        token: 'AbC-def_ghi123456789012345',
      },
      alerts: {
        apiUrl: 'https://discord.com/api/v10',
        id: '123456789012345678',
        token: 'AbC-def_ghi123456789012345',
      },
    });
    expect(problems({ DISCORD_WEBHOOK_URL: 'https://discord.com/channels/1/2' })).toEqual([
      'DISCORD_WEBHOOK_URL: must be a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>)',
    ]);
  });

  it('Teams bot: app id and secret in pairs; tenant, service URL and login URL are admin settings with defaults', () => {
    const APP = '0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
    const env = loadEnv(NotifierEnv, { TEAMS_BOT_APP_ID: APP, TEAMS_BOT_APP_PASSWORD: 'Ab1~secret.value\n' });
    expect(env.settingsOf(teams).bot).toEqual({
      appId: APP,
      password: 'Ab1~secret.value',
      tenant: 'botframework.com',
    });
    expect(env).toMatchObject({
      TEAMS_BOT_SERVICE_URL: 'https://smba.trafficmanager.net/teams/',
      TEAMS_BOT_LOGIN_URL: 'https://login.microsoftonline.com',
    });
    expect(env.configuredProviders()).toEqual(['teams']);
    expect(
      loadEnv(NotifierEnv, {
        TEAMS_BOT_APP_ID: APP,
        TEAMS_BOT_APP_PASSWORD: 'x~y',
        TEAMS_BOT_TENANT_ID: 'contoso.onmicrosoft.com',
      }).settingsOf(teams).bot?.tenant,
    ).toBe('contoso.onmicrosoft.com');
    expect(problems({ TEAMS_BOT_APP_ID: APP })).toEqual([
      'TEAMS_BOT_APP_PASSWORD: is required with TEAMS_BOT_APP_ID',
    ]);
    const bad = problems({ TEAMS_BOT_APP_ID: 'my-bot', TEAMS_BOT_APP_PASSWORD: 'very secret value' });
    expect(bad.join('\n')).toMatch(
      /TEAMS_BOT_APP_ID: must be the Microsoft App ID of the Azure Bot \(a GUID\)/,
    );
    expect(bad.join('\n')).toMatch(/TEAMS_BOT_APP_PASSWORD: must be a client secret value without spaces/);
    expect(bad.join('\n')).not.toContain('very secret value');
  });

  it('email: SMTP_URL and SMTP_FROM in pairs; STARTTLS required by default', () => {
    const env = loadEnv(NotifierEnv, {
      SMTP_URL: 'smtp://u:p@relay.example.com:587',
      SMTP_FROM: 'Argo <argo@example.com>',
    });
    expect(Object.fromEntries(env.settingsOf(email).servers)).toEqual({
      default: { url: 'smtp://u:p@relay.example.com:587', from: 'Argo <argo@example.com>' },
    });
    expect(env.settingsOf(email).requireTls).toBe(true);
    expect(problems({ SMTP_URL: 'https://relay.example.com', SMTP_FROM: 'nobody' })).toEqual([
      'SMTP_URL: must be smtp://[user:password@]host[:port] (STARTTLS) or smtps://… (TLS)',
      'SMTP_FROM: must be an address such as "Argo <argo@example.com>"',
    ]);
    expect(problems({ SMTP_URL_OPS: 'smtps://relay.example.com' })).toEqual([
      'SMTP_FROM_OPS: is required with SMTP_URL_OPS',
    ]);
  });

  it('Google Chat app: a service account key alone enables googleChat, as the destination app of NAMESPACE_SCOPES', () => {
    const key = JSON.stringify({
      type: 'service_account',
      client_email: 'notifier@p.iam.gserviceaccount.com',
      private_key: generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    const env = loadEnv(NotifierEnv, {
      GOOGLE_CHAT_SERVICE_ACCOUNT_JSON: `${key}\n`,
      NAMESPACE_SCOPES: 'googleChat/app=team-*',
    });
    expect(env.configuredProviders()).toEqual(['googleChat']);
    expect(env.settingsOf(googleChat).apiUrl).toBe('https://chat.googleapis.com');
    expect(env.settingsOf(googleChat).app?.clientEmail).toBe('notifier@p.iam.gserviceaccount.com');
    expect(env.scopes.allows('googleChat', 'app', 'team-a')).toBe(true);
    expect(env.scopes.allows('googleChat', 'app', 'argo')).toBe(false);
    expect(problems({ GOOGLE_CHAT_SERVICE_ACCOUNT_JSON: '{"type":"service_account"' })).toEqual([
      'GOOGLE_CHAT_SERVICE_ACCOUNT_JSON: must be the JSON key file of a service account (it is not JSON)',
    ]);
    expect(
      problems({
        GOOGLE_CHAT_SERVICE_ACCOUNT_JSON: key,
        GOOGLE_CHAT_WEBHOOK_URL_APP: 'https://chat.googleapis.com/v1/spaces/AAAA1/messages?key=k&token=t',
      }),
    ).toEqual([
      'GOOGLE_CHAT_WEBHOOK_URL_APP: "app" names the Chat app (GOOGLE_CHAT_SERVICE_ACCOUNT_JSON) in NAMESPACE_SCOPES; pick another webhook name',
    ]);
  });
});
