import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { PluginConfigError } from '@app/plugin-kit';
import { DiscordConfig } from './providers/discord/discord-config.dto.js';
import { PagerDutyConfig } from './providers/pagerduty/pagerduty-config.dto.js';
import { GoogleChatConfig } from './providers/google-chat/google-chat-config.dto.js';
import { TeamsConfig } from './providers/teams/teams-config.dto.js';
import { EmailConfig } from './providers/email/email-config.dto.js';
import { MattermostConfig } from './providers/mattermost/mattermost-config.dto.js';
import { SlackConfig } from './providers/slack/slack-config.dto.js';

/** The services the notifier speaks, in the order of the docs. */
export const PROVIDER_NAMES = [
  'slack',
  'teams',
  'googleChat',
  'mattermost',
  'discord',
  'email',
  'pagerduty',
] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/**
 * The body under `plugin.notify`: exactly one provider block, e.g. `notify: {slack: {...}}`. The 0.1.0 body
 * `plugin.slack: {...}` is read as `notify: {slack: {...}}`.
 */
export class NotifyConfig {
  @IsOptional()
  @ValidateNested()
  @Type(() => SlackConfig)
  slack?: SlackConfig;

  @IsOptional()
  @ValidateNested()
  @Type(() => MattermostConfig)
  mattermost?: MattermostConfig;

  @IsOptional()
  @ValidateNested()
  @Type(() => DiscordConfig)
  discord?: DiscordConfig;

  @IsOptional()
  @ValidateNested()
  @Type(() => PagerDutyConfig)
  pagerduty?: PagerDutyConfig;

  @IsOptional()
  @ValidateNested()
  @Type(() => GoogleChatConfig)
  googleChat?: GoogleChatConfig;

  @IsOptional()
  @ValidateNested()
  @Type(() => TeamsConfig)
  teams?: TeamsConfig;

  @IsOptional()
  @ValidateNested()
  @Type(() => EmailConfig)
  email?: EmailConfig;
}

export interface ChosenProvider {
  name: ProviderName;
  config: object;
}

/** The one provider block of a body; PluginConfigError naming the problem for none or several. */
export function chooseProvider(config: NotifyConfig): ChosenProvider {
  const present = PROVIDER_NAMES.filter((name) => config[name] !== undefined && config[name] !== null);
  if (present.length !== 1) {
    throw new PluginConfigError(
      `body: exactly one provider block is required (${PROVIDER_NAMES.join(', ')}); got ${present.length === 0 ? 'none' : present.join(' and ')}`,
    );
  }
  return { name: present[0], config: config[present[0]]! };
}
