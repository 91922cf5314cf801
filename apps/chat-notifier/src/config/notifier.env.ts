import {
  EnvBoolean,
  EnvInt,
  EnvTrim,
  NamespaceScopes,
  Secret,
  type EnvExtras,
  httpUrlProblem,
} from '@app/plugin-kit';
import {
  IsBoolean,
  IsGoDuration,
  IsHttpUrl,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
} from '@app/plugin-kit/config/env-rules.js';
import { parseServiceAccount, type GoogleServiceAccount } from '../providers/google-chat/service-account.js';
import { credentialProblem, readNamed } from './named-destinations.js';
import { DEFAULT_WORKSPACE, readNamedTokens, type EnvSource } from '../providers/slack/slack-settings.js';

/** What enables each provider, for messages. */
export const PROVIDER_SETTINGS = [
  'SLACK_BOT_TOKEN (slack)',
  'TEAMS_WEBHOOK_URL or TEAMS_BOT_APP_ID + TEAMS_BOT_APP_PASSWORD (teams)',
  'GOOGLE_CHAT_WEBHOOK_URL or GOOGLE_CHAT_SERVICE_ACCOUNT_JSON (googleChat)',
  'MATTERMOST_URL + MATTERMOST_TOKEN (mattermost)',
  'DISCORD_WEBHOOK_URL (discord)',
  'SMTP_URL + SMTP_FROM (email)',
  'PAGERDUTY_ROUTING_KEY (pagerduty)',
];

export interface MattermostServer {
  /** The server's address without a trailing slash, e.g. https://chat.example.com. */
  url: string;
  token: string;
}

/** The Chat app's name among the Google Chat destinations (NAMESPACE_SCOPES `googleChat/app=…`). */
export const GOOGLE_CHAT_APP = 'app';

const trim = EnvTrim();

export interface DiscordWebhook {
  /** The API root the webhook URL was given under, e.g. https://discord.com/api. */
  apiUrl: string;
  id: string;
  token: string;
}

const DISCORD_WEBHOOK = /^(https?:\/\/[^?#]+?)\/webhooks\/(\d{5,25})\/([A-Za-z0-9_-]{20,200})\/?$/;

/** A Discord webhook URL as Discord shows it (Channel settings → Integrations → Webhooks → Copy URL). */
export function parseDiscordWebhook(url: string): DiscordWebhook | undefined {
  const m = DISCORD_WEBHOOK.exec(url);
  return m && !httpUrlProblem(url) ? { apiUrl: m[1], id: m[2], token: m[3] } : undefined;
}

export interface GoogleChatWebhook {
  /** https://chat.googleapis.com (or a proxy, or a stand-in). */
  origin: string;
  space: string;
  key: string;
  token: string;
}

/** A space's incoming webhook URL as Google Chat shows it (Apps & integrations → Webhooks → copy). */
export function parseGoogleChatWebhook(raw: string): GoogleChatWebhook | undefined {
  if (httpUrlProblem(raw)) return undefined;
  const url = new URL(raw);
  const space = /^\/v1\/spaces\/([A-Za-z0-9_-]+)\/messages$/.exec(url.pathname)?.[1];
  const key = url.searchParams.get('key');
  const token = url.searchParams.get('token');
  return space && key && token ? { origin: url.origin, space, key, token } : undefined;
}

/** A Teams Workflows webhook URL (Power Automate "When a Teams webhook request is received"): its `sig` is the credential. */
export function teamsWebhookProblem(raw: string): string | undefined {
  if (httpUrlProblem(raw)) return 'must be an http(s) URL';
  const url = new URL(raw);
  return url.searchParams.get('sig') && /\/triggers\/[^/]+\/paths\/invoke$/.test(url.pathname)
    ? undefined
    : 'must be the URL of a Teams Workflows webhook (…/triggers/manual/paths/invoke?…&sig=…); Office 365 connector URLs are retired';
}

const TEAMS_GUID = /^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

/** A Teams bot (Azure Bot resource): its app's id and client secret, and its tenant when single-tenant. */
export interface TeamsBot {
  appId: string;
  password: string;
  /** `botframework.com` for a multi-tenant bot. */
  tenant: string;
}

export interface SmtpServer {
  /** smtp:// (STARTTLS, required unless SMTP_REQUIRE_TLS=false) or smtps:// (TLS from the start). */
  url: string;
  from: string;
}

/** `smtp[s]://[user:password@]host[:port]`. */
export function smtpUrlProblem(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return /^smtps?:$/.test(url.protocol) && url.hostname !== '' && url.pathname.replace(/\/$/, '') === ''
      ? undefined
      : 'must be smtp://[user:password@]host[:port] (STARTTLS) or smtps://… (TLS)';
  } catch {
    return 'must be smtp://[user:password@]host[:port] (STARTTLS) or smtps://… (TLS)';
  }
}

/**
 * Admin configuration of the notifier sidecar (from the pod env; credentials only through secretKeyRef).
 * A provider is enabled by its settings alone; at least one must be. Workflow authors choose a destination
 * by name (a Slack workspace, a Mattermost server, a webhook), never a token or a URL.
 */
export class NotifierEnv implements EnvExtras {
  /** Bot token of the default Slack workspace (xoxb-…). */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @Matches(/^xox\S*$/, { message: 'must be a Slack bot token (xoxb-…) without spaces or line breaks' })
  SLACK_BOT_TOKEN?: string;

  /** Web API base URL: Slack's own, a proxy, or a stand-in in tests. */
  @IsHttpUrl()
  SLACK_API_URL = 'https://slack.com/api/';

  /**
   * How many recent messages of the channel (or thread) are searched for an earlier post of the same
   * execution when this process has no record of it (after a sidecar restart). 0 turns the search off.
   */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(1000)
  SLACK_DEDUP_LOOKBACK = 200;

  /** How long channel name → ID lookups are cached per workspace. */
  @IsGoDuration({ min: '0s', max: '24h' })
  SLACK_CHANNEL_CACHE_TTL = '10m';

  /** Timeout of one Slack request; well below the kit's 20 s call deadline. */
  @IsGoDuration({ min: '100ms', max: '15s' })
  SLACK_REQUEST_TIMEOUT = '8s';

  /** Mattermost: the server's address (https://chat.example.com); with MATTERMOST_TOKEN it enables Mattermost. */
  @IsOptional()
  @IsString()
  MATTERMOST_URL?: string;

  /** Mattermost: a bot account's access token (or a personal access token). */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  MATTERMOST_TOKEN?: string;

  /** Recent posts of the channel (or thread) searched for an earlier post after a restart; 0 turns it off. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(1000)
  MATTERMOST_DEDUP_LOOKBACK = 200;

  /** Timeout of one request to Mattermost, Discord, PagerDuty and the other HTTP providers. */
  @IsGoDuration({ min: '100ms', max: '15s' })
  NOTIFY_REQUEST_TIMEOUT = '8s';

  /** Discord: the URL of a channel's webhook (https://discord.com/api/webhooks/<id>/<token>); it is the credential. */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  DISCORD_WEBHOOK_URL?: string;

  /** Discord webhook name → its parts. Filled by loadExtras. */
  discord = new Map<string, DiscordWebhook>();

  /** PagerDuty: the integration key (routing key) of a service's Events API v2 integration. */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  PAGERDUTY_ROUTING_KEY?: string;

  /** PagerDuty Events API host: PagerDuty's own (EU accounts: https://events.eu.pagerduty.com), a proxy, or a stand-in. */
  @IsHttpUrl()
  PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com';

  /** PagerDuty service name → routing key. Filled by loadExtras. */
  pagerduty = new Map<string, string>();

  /** Google Chat: a space's incoming webhook URL (its key and token are the credential). */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  GOOGLE_CHAT_WEBHOOK_URL?: string;

  /** Google Chat webhook name → its parts. Filled by loadExtras. */
  googleChat = new Map<string, GoogleChatWebhook>();

  /**
   * Google Chat app mode (`space:`, `update:`): the JSON key file of the service account of a Chat app. Its
   * `token_uri` is where the plugin gets access tokens.
   */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  GOOGLE_CHAT_SERVICE_ACCOUNT_JSON?: string;

  /** The Chat API's base URL in app mode: Google's own, a proxy, or a stand-in in tests. */
  @IsHttpUrl()
  GOOGLE_CHAT_API_URL = 'https://chat.googleapis.com';

  /** The parsed service account key. Filled by loadExtras. */
  googleChatApp?: GoogleServiceAccount;

  /** Microsoft Teams: the URL of a Workflows webhook that posts to a channel or chat (its `sig` is the credential). */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  TEAMS_WEBHOOK_URL?: string;

  /** Teams webhook name → URL. Filled by loadExtras. */
  teams = new Map<string, string>();

  /** Teams bot: the Microsoft Entra app (client) id of an Azure Bot; with TEAMS_BOT_APP_PASSWORD it enables bot mode. */
  @trim
  @IsOptional()
  @IsString()
  @Matches(TEAMS_GUID, { message: 'must be the Microsoft App ID of the Azure Bot (a GUID)' })
  TEAMS_BOT_APP_ID?: string;

  /** Teams bot: a client secret (its value, not its id) of that app. */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  @Matches(/^\S+$/, { message: 'must be a client secret value without spaces or line breaks' })
  TEAMS_BOT_APP_PASSWORD?: string;

  /** Teams bot: the tenant (GUID or domain) of a single-tenant bot; unset for a multi-tenant one (botframework.com). */
  @trim
  @IsOptional()
  @IsString()
  @Matches(/^(?:[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$/, {
    message: 'must be a tenant id (GUID) or domain such as contoso.onmicrosoft.com',
  })
  TEAMS_BOT_TENANT_ID?: string;

  /** Teams bot: the Bot Framework connector's service URL (global, or a regional one such as …/emea/, or GCC's). */
  @IsHttpUrl()
  TEAMS_BOT_SERVICE_URL = 'https://smba.trafficmanager.net/teams/';

  /** Teams bot: where the bot's access token comes from (Microsoft Entra ID; a proxy, or a stand-in in tests). */
  @IsHttpUrl()
  TEAMS_BOT_LOGIN_URL = 'https://login.microsoftonline.com';

  /** The bot's credentials when both are set. Filled by loadExtras. */
  teamsBot?: TeamsBot;

  /** Email: the SMTP relay, `smtp://user:password@host:587` (STARTTLS) or `smtps://…:465` (TLS). */
  @Secret()
  @trim
  @IsOptional()
  @IsString()
  SMTP_URL?: string;

  /** Email: the sender, `Argo Workflows <argo@example.com>`; with SMTP_URL it enables email. */
  @IsOptional()
  @IsString()
  SMTP_FROM?: string;

  /** STARTTLS is required on smtp:// (a relay that does not offer it fails the step); false allows plain text. */
  @EnvBoolean()
  @IsBoolean()
  SMTP_REQUIRE_TLS = true;

  /** A PEM file of the CA that signed the relay's certificate, when it is not a public one (mounted from a ConfigMap). */
  @IsOptional()
  @IsString()
  SMTP_CA_FILE?: string;

  /** SMTP server name → URL and sender. Filled by loadExtras. */
  smtp = new Map<string, SmtpServer>();

  /** Mattermost server name → address and token. Filled by loadExtras. */
  mattermost = new Map<string, MattermostServer>();

  /** Slack workspace name (lower case) → bot token, the default workspace included. Filled by loadExtras. */
  workspaces = new Map<string, string>();

  /**
   * Which namespaces may use which destination, one kind per provider (its key under `notify`):
   * `slack/ops=team-ops,sre-*; pagerduty/default=prod-*` (docs/install.md). Unset: every destination is open
   * to every namespace.
   */
  @IsOptional()
  @IsString()
  NAMESPACE_SCOPES?: string;

  /** Filled by loadExtras from NAMESPACE_SCOPES. */
  scopes = NamespaceScopes.unrestricted;

  loadExtras(source: EnvSource): string[] {
    const { tokens, problems } = readNamedTokens(source);
    this.workspaces = new Map([
      ...(this.SLACK_BOT_TOKEN ? [[DEFAULT_WORKSPACE, this.SLACK_BOT_TOKEN] as const] : []),
      ...tokens,
    ]);
    problems.push(...this.readMattermost(source));
    const discord = readNamed(source, 'DISCORD_WEBHOOK_URL', (url) =>
      parseDiscordWebhook(url)
        ? undefined
        : 'must be a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>)',
    );
    problems.push(...discord.problems);
    for (const [name, url] of discord.values) this.discord.set(name, parseDiscordWebhook(url)!);
    const pagerduty = readNamed(source, 'PAGERDUTY_ROUTING_KEY', (key) =>
      /^[A-Za-z0-9]{32}$/.test(key) ? undefined : 'must be a 32-character integration key (Events API v2)',
    );
    problems.push(...pagerduty.problems);
    this.pagerduty = pagerduty.values;
    const chat = readNamed(source, 'GOOGLE_CHAT_WEBHOOK_URL', (url) =>
      parseGoogleChatWebhook(url)
        ? undefined
        : 'must be a Google Chat webhook URL (https://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…)',
    );
    problems.push(...chat.problems);
    for (const [name, url] of chat.values) this.googleChat.set(name, parseGoogleChatWebhook(url)!);
    problems.push(...this.readGoogleChatApp());
    const teams = readNamed(source, 'TEAMS_WEBHOOK_URL', teamsWebhookProblem);
    problems.push(...teams.problems);
    this.teams = teams.values;
    problems.push(...this.readTeamsBot());
    problems.push(...this.readSmtp(source));
    if (problems.length === 0 && this.configuredProviders().length === 0)
      problems.push(`no provider is configured: set one of: ${PROVIDER_SETTINGS.join('; ')}`);
    const scoped = NamespaceScopes.parse(this.NAMESPACE_SCOPES, {
      noun: 'destination',
      configured: {
        slack: this.workspaces.keys(),
        mattermost: this.mattermost.keys(),
        discord: this.discord.keys(),
        pagerduty: this.pagerduty.keys(),
        googleChat: [...this.googleChat.keys(), ...(this.googleChatApp ? [GOOGLE_CHAT_APP] : [])],
        teams: this.teams.keys(),
        teamsBot: this.teamsBot ? ['default'] : [],
        email: this.smtp.keys(),
      },
      normalize: (name) => name.toLowerCase(),
    });
    this.scopes = scoped.scopes;
    return [...problems, ...scoped.problems];
  }

  /** The providers this sidecar can send to. */
  configuredProviders(): string[] {
    return [
      this.workspaces.size > 0 && 'slack',
      this.mattermost.size > 0 && 'mattermost',
      this.discord.size > 0 && 'discord',
      this.pagerduty.size > 0 && 'pagerduty',
      (this.googleChat.size > 0 || this.googleChatApp !== undefined) && 'googleChat',
      (this.teams.size > 0 || this.teamsBot !== undefined) && 'teams',
      this.smtp.size > 0 && 'email',
    ].filter((p): p is string => p !== false);
  }

  /** TEAMS_BOT_APP_ID and TEAMS_BOT_APP_PASSWORD, as a pair (one bot per sidecar). */
  private readTeamsBot(): string[] {
    const { TEAMS_BOT_APP_ID: appId, TEAMS_BOT_APP_PASSWORD: password } = this;
    if (appId && password)
      this.teamsBot = { appId, password, tenant: this.TEAMS_BOT_TENANT_ID || 'botframework.com' };
    else if (appId) return ['TEAMS_BOT_APP_PASSWORD: is required with TEAMS_BOT_APP_ID'];
    else if (password) return ['TEAMS_BOT_APP_ID: is required with TEAMS_BOT_APP_PASSWORD'];
    return [];
  }

  /** GOOGLE_CHAT_SERVICE_ACCOUNT_JSON, parsed; `app` is then its name among the Google Chat destinations. */
  private readGoogleChatApp(): string[] {
    if (!this.GOOGLE_CHAT_SERVICE_ACCOUNT_JSON) return [];
    const { account, problem } = parseServiceAccount(this.GOOGLE_CHAT_SERVICE_ACCOUNT_JSON);
    if (problem) return [`GOOGLE_CHAT_SERVICE_ACCOUNT_JSON: ${problem}`];
    this.googleChatApp = account;
    return this.googleChat.has(GOOGLE_CHAT_APP)
      ? [
          `GOOGLE_CHAT_WEBHOOK_URL_APP: "${GOOGLE_CHAT_APP}" names the Chat app (GOOGLE_CHAT_SERVICE_ACCOUNT_JSON) in NAMESPACE_SCOPES; pick another webhook name`,
        ]
      : [];
  }

  /** SMTP_URL[_<NAME>] and SMTP_FROM[_<NAME>], in pairs. */
  private readSmtp(source: EnvSource): string[] {
    const urls = readNamed(source, 'SMTP_URL', smtpUrlProblem);
    const froms = readNamed(source, 'SMTP_FROM', (from) =>
      /<?[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>?$/.test(from)
        ? undefined
        : 'must be an address such as "Argo <argo@example.com>"',
    );
    const problems = [...urls.problems, ...froms.problems];
    const suffix = (name: string) => (name === 'default' ? '' : `_${name.toUpperCase()}`);
    for (const name of new Set([...urls.values.keys(), ...froms.values.keys()])) {
      const url = urls.values.get(name);
      const from = froms.values.get(name);
      if (url && from) this.smtp.set(name, { url, from });
      else if (url) problems.push(`SMTP_FROM${suffix(name)}: is required with SMTP_URL${suffix(name)}`);
      else if (!urls.problems.some((p) => p.startsWith(`SMTP_URL${suffix(name)}:`)))
        problems.push(`SMTP_URL${suffix(name)}: is required with SMTP_FROM${suffix(name)}`);
    }
    return problems;
  }

  /** MATTERMOST_URL[_<NAME>] and MATTERMOST_TOKEN[_<NAME>], in pairs. */
  private readMattermost(source: EnvSource): string[] {
    const urls = readNamed(source, 'MATTERMOST_URL', httpUrlProblem);
    const tokens = readNamed(source, 'MATTERMOST_TOKEN', credentialProblem);
    const problems = [...urls.problems, ...tokens.problems];
    const suffix = (name: string) => (name === 'default' ? '' : `_${name.toUpperCase()}`);
    for (const name of new Set([...urls.values.keys(), ...tokens.values.keys()])) {
      const url = urls.values.get(name);
      const token = tokens.values.get(name);
      if (url && token) this.mattermost.set(name, { url: url.replace(/\/+$/, ''), token });
      else if (url)
        problems.push(`MATTERMOST_TOKEN${suffix(name)}: is required with MATTERMOST_URL${suffix(name)}`);
      else if (!urls.problems.some((p) => p.startsWith(`MATTERMOST_URL${suffix(name)}:`)))
        problems.push(`MATTERMOST_URL${suffix(name)}: is required with MATTERMOST_TOKEN${suffix(name)}`);
    }
    return problems;
  }
}
