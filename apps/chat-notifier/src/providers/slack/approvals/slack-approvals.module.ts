import type { ApprovalModule } from '../../../approvals/approval-provider.js';
import { ChannelResolver } from '../channel-resolver.js';
import { DuplicateFinder } from '../duplicate-finder.js';
import { SlackClientFactory } from '../slack-client.factory.js';
import { SlackApprovalConfig } from './slack-approval-config.dto.js';
import { SlackApprovals } from './slack-approvals.js';
import { SlackDirectory } from './slack-directory.js';

/**
 * Slack's approvals. The clients, the channel resolver and the duplicate finder are the notifier's Slack
 * provider's (also registered by its module; Nest keeps one of each in the notifier's module).
 */
export const slackApprovals: ApprovalModule<SlackApprovalConfig> = {
  config: SlackApprovalConfig,
  readers: SlackApprovals,
  helpers: [SlackClientFactory, ChannelResolver, DuplicateFinder, SlackDirectory],
};
