import type { ProviderModule } from '../notifier-provider.js';
import { ChannelResolver } from './channel-resolver.js';
import { DuplicateFinder } from './duplicate-finder.js';
import { FileUploader } from './file-uploader.js';
import { SlackClientFactory } from './slack-client.factory.js';
import { SlackConfig } from './slack-block.dto.js';
import { SlackProvider } from './slack.provider.js';

export const slackModule: ProviderModule<SlackConfig> = {
  block: SlackConfig,
  provider: SlackProvider,
  helpers: [SlackClientFactory, ChannelResolver, DuplicateFinder, FileUploader],
};
