import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { PluginConfigError, type ExecutionContext, type PluginHandler } from '@app/plugin-kit';
import { chooseProvider, NotifyConfig, type ProviderName } from './notify-config.dto.js';
import type { NotifierProvider } from './providers/notifier-provider.js';
import { DiscordProvider } from './providers/discord/discord.provider.js';
import { PagerDutyProvider } from './providers/pagerduty/pagerduty.provider.js';
import { GoogleChatProvider } from './providers/google-chat/google-chat.provider.js';
import { TeamsProvider } from './providers/teams/teams.provider.js';
import { EmailProvider } from './providers/email/email.provider.js';
import { MattermostProvider } from './providers/mattermost/mattermost.provider.js';
import { SlackProvider } from './providers/slack/slack.provider.js';

const FIELD_PROBLEM = /^[A-Za-z_][\w.]*: /;

/** Hands the body's one provider block to that provider; config errors name the field from the body's root. */
@Injectable()
export class NotifierHandler implements PluginHandler<NotifyConfig> {
  readonly configClass = NotifyConfig;
  private readonly providers: Record<ProviderName, NotifierProvider>;

  constructor(
    slack: SlackProvider,
    mattermost: MattermostProvider,
    discord: DiscordProvider,
    pagerduty: PagerDutyProvider,
    googleChat: GoogleChatProvider,
    teams: TeamsProvider,
    email: EmailProvider,
  ) {
    this.providers = {
      slack: slack as NotifierProvider,
      mattermost: mattermost as NotifierProvider,
      discord: discord as NotifierProvider,
      pagerduty: pagerduty as NotifierProvider,
      googleChat: googleChat as NotifierProvider,
      teams: teams as NotifierProvider,
      email: email as NotifierProvider,
    };
  }

  async execute(ctx: ExecutionContext<NotifyConfig>): Promise<ExecuteTemplateReply> {
    const { name, config } = chooseProvider(ctx.config);
    try {
      return await this.providers[name].execute({ ...ctx, config });
    } catch (err) {
      // `channel: …` from the Slack block is `slack.channel: …` from the body's root.
      if (err instanceof PluginConfigError && FIELD_PROBLEM.test(err.message))
        throw new PluginConfigError(`${name}.${err.message}`);
      throw err;
    }
  }
}
