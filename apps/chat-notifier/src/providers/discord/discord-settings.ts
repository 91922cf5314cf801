import {
  httpUrlProblem,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamKind,
} from '@app/plugin-kit';
import {
  ApprovalCallsPerMinute,
  OptionalCredential,
  OptionalSetting,
  readDestinations,
} from '../../shared/destination-settings.js';
import { readDiscordBots, type DiscordBot } from './discord-bot-settings.js';

export const discordVariables = (Base: EnvClass) => {
  class DiscordVariables extends Base {
    /** The URL of a channel's webhook (https://discord.com/api/webhooks/<id>/<token>); it is the credential. */
    @OptionalCredential()
    DISCORD_WEBHOOK_URL?: string;

    /** A bot's token (Developer Portal → Bot): approval gates read reactions through it; a webhook cannot. */
    @OptionalCredential()
    DISCORD_BOT_TOKEN?: string;

    /** The bot's API root: https://discord.com/api/v10 unless set. */
    @OptionalSetting()
    DISCORD_API_URL?: string;

    /** Calls a minute the approval gates may make on each bot (unset: 0.8 × its published limit). */
    @ApprovalCallsPerMinute()
    DISCORD_APPROVAL_CALLS_PER_MINUTE?: number;
  }
  return DiscordVariables;
};

export interface DiscordWebhook {
  /** The API root the webhook URL was given under, e.g. https://discord.com/api. */
  apiUrl: string;
  id: string;
  token: string;
}

export interface DiscordSettings {
  /** Webhook name → its parts. */
  webhooks: Map<string, DiscordWebhook>;
  /** Bot name → its token and API root (approval gates). */
  bots: Map<string, DiscordBot>;
}

const DISCORD_WEBHOOK = /^(https?:\/\/[^?#]+?)\/webhooks\/(\d{5,25})\/([A-Za-z0-9_-]{20,200})\/?$/;

/** A Discord webhook URL as Discord shows it (Channel settings → Integrations → Webhooks → Copy URL). */
export function parseDiscordWebhook(url: string): DiscordWebhook | undefined {
  const m = DISCORD_WEBHOOK.exec(url);
  return m && !httpUrlProblem(url) ? { apiUrl: m[1], id: m[2], token: m[3] } : undefined;
}

/** Named webhooks: `DISCORD_<NAME>_WEBHOOK_URL` (0.1.0: `DISCORD_WEBHOOK_URL_<NAME>`), chosen with `webhook:`. */
const FAMILY = { prefix: 'DISCORD', settings: ['WEBHOOK_URL'], formerSpelling: ['WEBHOOK_URL'] };

export const DISCORD_WEBHOOKS: UpstreamKind = {
  provider: 'Discord',
  scope: 'discord',
  field: 'webhook',
  enable: 'DISCORD_WEBHOOK_URL',
  variablesFor: (name) => `DISCORD_${name}_WEBHOOK_URL`,
};

export function readDiscordSettings(_env: object, source: EnvSource): SettingsRead<DiscordSettings> {
  const { destinations, problems, formerNames } = readDestinations(
    source,
    FAMILY,
    {
      WEBHOOK_URL: (url) =>
        parseDiscordWebhook(url)
          ? undefined
          : 'must be a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>)',
    },
    (values) => parseDiscordWebhook(values.WEBHOOK_URL!)!,
  );
  const read = readDiscordBots(source);
  return {
    settings: { webhooks: destinations, bots: read.bots },
    problems: [...problems, ...read.problems],
    formerNames,
  };
}
