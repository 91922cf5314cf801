import { Module } from '@nestjs/common';
import { provideHandler } from '@app/plugin-kit';
import { DuplicateFinder } from './providers/slack/duplicate-finder.js';
import { FileUploader } from './providers/slack/file-uploader.js';
import { NotifierHandler } from './notifier.handler.js';
import { DiscordProvider } from './providers/discord/discord.provider.js';
import { PagerDutyProvider } from './providers/pagerduty/pagerduty.provider.js';
import { GoogleChatProvider } from './providers/google-chat/google-chat.provider.js';
import { TeamsProvider } from './providers/teams/teams.provider.js';
import { EmailProvider } from './providers/email/email.provider.js';
import { MattermostProvider } from './providers/mattermost/mattermost.provider.js';
import { SlackProvider } from './providers/slack/slack.provider.js';
import { ChannelResolver } from './providers/slack/channel-resolver.js';
import { SlackClientFactory } from './providers/slack/slack-client.factory.js';

@Module({
  providers: [
    SlackClientFactory,
    ChannelResolver,
    DuplicateFinder,
    FileUploader,
    SlackProvider,
    MattermostProvider,
    DiscordProvider,
    PagerDutyProvider,
    GoogleChatProvider,
    TeamsProvider,
    EmailProvider,
    NotifierHandler,
    provideHandler(NotifierHandler),
  ],
})
export class ChatNotifierModule {}
