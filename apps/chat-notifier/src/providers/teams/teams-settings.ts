import {
  httpUrlProblem,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamKind,
} from '@app/plugin-kit';
import { IsHttpUrl, Matches } from '@app/plugin-kit/config/env-rules.js';
import { OptionalCredential, OptionalSetting, readDestinations } from '../../shared/destination-settings.js';

const TEAMS_GUID = /^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

export const teamsVariables = (Base: EnvClass) => {
  class TeamsVariables extends Base {
    /** The URL of a Workflows webhook that posts to a channel or chat (its `sig` is the credential). */
    @OptionalCredential()
    TEAMS_WEBHOOK_URL?: string;

    /** Bot: the Microsoft Entra app (client) id of an Azure Bot; with TEAMS_BOT_APP_PASSWORD it enables bot mode. */
    @OptionalSetting()
    @Matches(TEAMS_GUID, { message: 'must be the Microsoft App ID of the Azure Bot (a GUID)' })
    TEAMS_BOT_APP_ID?: string;

    /** Bot: a client secret (its value, not its id) of that app. */
    @OptionalCredential()
    @Matches(/^\S+$/, { message: 'must be a client secret value without spaces or line breaks' })
    TEAMS_BOT_APP_PASSWORD?: string;

    /** Bot: the tenant (GUID or domain) of a single-tenant bot; unset for a multi-tenant one (botframework.com). */
    @OptionalSetting()
    @Matches(/^(?:[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$/, {
      message: 'must be a tenant id (GUID) or domain such as contoso.onmicrosoft.com',
    })
    TEAMS_BOT_TENANT_ID?: string;

    /** Bot: the Bot Framework connector's service URL (global, or a regional one such as …/emea/, or GCC's). */
    @IsHttpUrl()
    TEAMS_BOT_SERVICE_URL = 'https://smba.trafficmanager.net/teams/';

    /** Bot: where the bot's access token comes from (Microsoft Entra ID; a proxy, or a stand-in in tests). */
    @IsHttpUrl()
    TEAMS_BOT_LOGIN_URL = 'https://login.microsoftonline.com';
  }
  return TeamsVariables;
};
export type TeamsVariables = InstanceType<ReturnType<typeof teamsVariables>>;

/** A Teams bot (Azure Bot resource): its app's id and client secret, and its tenant when single-tenant. */
export interface TeamsBot {
  appId: string;
  password: string;
  /** `botframework.com` for a multi-tenant bot. */
  tenant: string;
}

export interface TeamsSettings {
  /** Webhook name → URL. */
  webhooks: Map<string, string>;
  /** The bot, when both its id and secret are set (one bot per sidecar). */
  bot?: TeamsBot;
  serviceUrl: string;
  loginUrl: string;
}

/** A Teams Workflows webhook URL (Power Automate "When a Teams webhook request is received"): its `sig` is the credential. */
export function teamsWebhookProblem(raw: string): string | undefined {
  if (httpUrlProblem(raw)) return 'must be an http(s) URL';
  const url = new URL(raw);
  return url.searchParams.get('sig') && /\/triggers\/[^/]+\/paths\/invoke$/.test(url.pathname)
    ? undefined
    : 'must be the URL of a Teams Workflows webhook (…/triggers/manual/paths/invoke?…&sig=…); Office 365 connector URLs are retired';
}

/** Named webhooks: `TEAMS_<NAME>_WEBHOOK_URL` (0.1.0: `TEAMS_WEBHOOK_URL_<NAME>`), chosen with `webhook:`. */
const FAMILY = { prefix: 'TEAMS', settings: ['WEBHOOK_URL'], formerSpelling: ['WEBHOOK_URL'] };

export const TEAMS_WEBHOOKS: UpstreamKind = {
  provider: 'Microsoft Teams',
  scope: 'teams',
  field: 'webhook',
  enable: 'TEAMS_WEBHOOK_URL',
  variablesFor: (name) => `TEAMS_${name}_WEBHOOK_URL`,
};

export const TEAMS_BOTS: UpstreamKind = {
  provider: 'Microsoft Teams',
  scope: 'teamsBot',
  field: 'bot',
  enable: 'TEAMS_BOT_APP_ID and TEAMS_BOT_APP_PASSWORD',
  variablesFor: () => 'TEAMS_BOT_APP_ID and TEAMS_BOT_APP_PASSWORD (one bot per sidecar)',
};

export function readTeamsSettings(env: TeamsVariables, source: EnvSource): SettingsRead<TeamsSettings> {
  const { destinations, problems, formerNames } = readDestinations(
    source,
    FAMILY,
    { WEBHOOK_URL: teamsWebhookProblem },
    (values) => values.WEBHOOK_URL!,
  );
  const settings: TeamsSettings = {
    webhooks: destinations,
    serviceUrl: env.TEAMS_BOT_SERVICE_URL,
    loginUrl: env.TEAMS_BOT_LOGIN_URL,
  };
  const { TEAMS_BOT_APP_ID: appId, TEAMS_BOT_APP_PASSWORD: password } = env;
  if (appId && password)
    settings.bot = { appId, password, tenant: env.TEAMS_BOT_TENANT_ID || 'botframework.com' };
  else if (appId) problems.push('TEAMS_BOT_APP_PASSWORD: is required with TEAMS_BOT_APP_ID');
  else if (password) problems.push('TEAMS_BOT_APP_ID: is required with TEAMS_BOT_APP_PASSWORD');
  return { settings, problems, formerNames };
}
