import {
  httpUrlProblem,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamKind,
} from '@app/plugin-kit';
import { IsHttpUrl } from '@app/plugin-kit/config/env-rules.js';
import { OptionalCredential, readDestinations } from '../../shared/destination-settings.js';
import { parseServiceAccount, type GoogleServiceAccount } from './service-account.js';

export const googleChatVariables = (Base: EnvClass) => {
  class GoogleChatVariables extends Base {
    /** A space's incoming webhook URL (its key and token are the credential). */
    @OptionalCredential()
    GOOGLE_CHAT_WEBHOOK_URL?: string;

    /**
     * Chat app mode (`space:`, `update:`): the JSON key file of the service account of a Chat app. Its
     * `token_uri` is where the plugin gets access tokens.
     */
    @OptionalCredential()
    GOOGLE_CHAT_SERVICE_ACCOUNT_JSON?: string;

    /** The Chat API's base URL in app mode: Google's own, a proxy, or a stand-in in tests. */
    @IsHttpUrl()
    GOOGLE_CHAT_API_URL = 'https://chat.googleapis.com';
  }
  return GoogleChatVariables;
};
export type GoogleChatVariables = InstanceType<ReturnType<typeof googleChatVariables>>;

export interface GoogleChatWebhook {
  /** https://chat.googleapis.com (or a proxy, or a stand-in). */
  origin: string;
  space: string;
  key: string;
  token: string;
}

export interface GoogleChatSettings {
  /** Webhook name → its parts. */
  webhooks: Map<string, GoogleChatWebhook>;
  /** The Chat app's service account key, when configured. */
  app?: GoogleServiceAccount;
  apiUrl: string;
}

/** The Chat app's name among the Google Chat destinations (NAMESPACE_SCOPES `googleChat/app=…`). */
export const GOOGLE_CHAT_APP = 'app';

/** A space's incoming webhook URL as Google Chat shows it (Apps & integrations → Webhooks → copy). */
export function parseGoogleChatWebhook(raw: string): GoogleChatWebhook | undefined {
  if (httpUrlProblem(raw)) return undefined;
  const url = new URL(raw);
  const space = /^\/v1\/spaces\/([A-Za-z0-9_-]+)\/messages$/.exec(url.pathname)?.[1];
  const key = url.searchParams.get('key');
  const token = url.searchParams.get('token');
  return space && key && token ? { origin: url.origin, space, key, token } : undefined;
}

/** Named webhooks: `GOOGLE_CHAT_<NAME>_WEBHOOK_URL` (0.1.0: `GOOGLE_CHAT_WEBHOOK_URL_<NAME>`), chosen with `webhook:`. */
const FAMILY = { prefix: 'GOOGLE_CHAT', settings: ['WEBHOOK_URL'], formerSpelling: ['WEBHOOK_URL'] };

export const GOOGLE_CHAT_WEBHOOKS: UpstreamKind = {
  provider: 'Google Chat',
  scope: 'googleChat',
  field: 'webhook',
  enable: 'GOOGLE_CHAT_WEBHOOK_URL',
  variablesFor: (name) => `GOOGLE_CHAT_${name}_WEBHOOK_URL`,
};

export function readGoogleChatSettings(
  env: GoogleChatVariables,
  source: EnvSource,
): SettingsRead<GoogleChatSettings> {
  const { destinations, given, problems, formerNames } = readDestinations(
    source,
    FAMILY,
    {
      WEBHOOK_URL: (url) =>
        parseGoogleChatWebhook(url)
          ? undefined
          : 'must be a Google Chat webhook URL (https://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…)',
    },
    (values) => parseGoogleChatWebhook(values.WEBHOOK_URL!)!,
  );
  const settings: GoogleChatSettings = { webhooks: destinations, apiUrl: env.GOOGLE_CHAT_API_URL };
  if (env.GOOGLE_CHAT_SERVICE_ACCOUNT_JSON) {
    const { account, problem } = parseServiceAccount(env.GOOGLE_CHAT_SERVICE_ACCOUNT_JSON);
    if (problem) problems.push(`GOOGLE_CHAT_SERVICE_ACCOUNT_JSON: ${problem}`);
    settings.app = account;
    const named = given.get(GOOGLE_CHAT_APP);
    if (account && named)
      problems.push(
        `${named.variable('WEBHOOK_URL')}: "${GOOGLE_CHAT_APP}" names the Chat app (GOOGLE_CHAT_SERVICE_ACCOUNT_JSON) in NAMESPACE_SCOPES; pick another webhook name`,
      );
  }
  return { settings, problems, formerNames };
}
