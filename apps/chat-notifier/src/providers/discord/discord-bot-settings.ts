import { httpUrlProblem, readUpstreams, type EnvSource, type UpstreamKind } from '@app/plugin-kit';
import { checkSettings, credentialProblem } from '../../shared/destination-settings.js';

/** Discord's REST API, version 10 (https://discord.com/developers/docs/reference#api-versioning). */
export const DISCORD_API_URL = 'https://discord.com/api/v10';

export interface DiscordBot {
  /** The API root, e.g. https://discord.com/api/v10 (a stand-in's address in tests). */
  apiUrl: string;
  /** The bot's token (Developer Portal → the application → Bot → Reset Token); sent as `Authorization: Bot …`. */
  token: string;
}

/**
 * Bots: `DISCORD_BOT_TOKEN` (+ optional `DISCORD_API_URL`) for the default one, `DISCORD_<NAME>_BOT_TOKEN` (+
 * `DISCORD_<NAME>_API_URL`) for named ones, chosen with `bot:`. Only a bot can read a channel; a webhook cannot.
 */
const FAMILY = { prefix: 'DISCORD', settings: ['BOT_TOKEN', 'API_URL'] };

export const DISCORD_BOTS: UpstreamKind = {
  provider: 'Discord',
  scope: 'discordBot',
  field: 'bot',
  enable: 'DISCORD_BOT_TOKEN (a bot in the channel; a webhook cannot read reactions)',
  variablesFor: (name) => `DISCORD_${name}_BOT_TOKEN`,
};

export interface DiscordBotsRead {
  bots: Map<string, DiscordBot>;
  /** Each names a variable, never its value. */
  problems: string[];
}

/** The configured bots, each with its token checked and its API address (Discord's unless set). */
export function readDiscordBots(source: EnvSource): DiscordBotsRead {
  const { upstreams, problems } = readUpstreams(source, FAMILY);
  const bots = new Map<string, DiscordBot>();
  for (const [name, given] of upstreams) {
    const checked = checkSettings(given, { BOT_TOKEN: credentialProblem, API_URL: httpUrlProblem });
    problems.push(...checked.problems);
    const { BOT_TOKEN: token, API_URL: apiUrl } = given.values;
    if (token === undefined)
      problems.push(`${given.variable('BOT_TOKEN')}: is required with ${given.variable('API_URL')}`);
    else if (checked.failed.size === 0)
      bots.set(name, { token, apiUrl: (apiUrl ?? DISCORD_API_URL).replace(/\/+$/, '') });
  }
  return { bots, problems };
}
