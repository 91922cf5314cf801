import type { ApprovalSlot } from '../../approvals/approval-channel.js';
import { ChannelResolver } from './channel-resolver.js';
import { DuplicateFinder } from './duplicate-finder.js';
import { SlackClientFactory } from './slack-client.factory.js';
import { SlackApprovalConfig } from './slack-approval-config.dto.js';
import { SlackApprovalChannels } from './slack-approval-channel.js';
import { SlackDirectory } from './slack-directory.js';

/**
 * Slack's approvals. The clients, the channel resolver and the duplicate finder are the notifier's Slack
 * provider's (also registered by its module; Nest keeps one of each in the notifier's module).
 */
export const slackApproval: ApprovalSlot<SlackApprovalConfig> = {
  block: SlackApprovalConfig,
  channels: {
    inject: [SlackClientFactory, ChannelResolver, DuplicateFinder, SlackDirectory],
    useFactory: (
      clients: SlackClientFactory,
      channels: ChannelResolver,
      finder: DuplicateFinder,
      directory: SlackDirectory,
    ) => new SlackApprovalChannels(clients, channels, finder, directory),
  },
  helpers: [SlackClientFactory, ChannelResolver, DuplicateFinder, SlackDirectory],
};
