import { Injectable } from '@nestjs/common';
import type { ApprovalReaders, BlockReader } from '../../../approvals/approval-provider.js';
import { approvalBudget } from '../../../approvals/poll-schedule.js';
import { NotifierEnv } from '../../../config/notifier.env.js';
import { ChannelResolver } from '../channel-resolver.js';
import { DuplicateFinder } from '../duplicate-finder.js';
import { SlackClientFactory } from '../slack-client.factory.js';
import type { SlackApprovalConfig } from './slack-approval-config.dto.js';
import { SLACK_READS_PER_MINUTE, SlackApprovalReader } from './slack-approval-reader.js';
import { SlackDirectory } from './slack-directory.js';

/** `<@U0123>` for a user, `<!subteam^S0123>` for a group by ID: what Slack shows as the person or group. */
export function slackMention(id: string): string {
  if (id.startsWith('@')) return id;
  return id.startsWith('S') ? `<!subteam^${id}>` : `<@${id}>`;
}

/** Makes the reader of an `approve: {slack: …}` block, on the workspace's clients. */
@Injectable()
export class SlackApprovals implements ApprovalReaders<SlackApprovalConfig> {
  constructor(
    private readonly clients: SlackClientFactory,
    private readonly channels: ChannelResolver,
    private readonly finder: DuplicateFinder,
    private readonly directory: SlackDirectory,
    private readonly env: NotifierEnv,
  ) {}

  readerFor(block: SlackApprovalConfig, where: Parameters<ApprovalReaders['readerFor']>[1]): BlockReader {
    const client = this.clients.forWorkspace(block.workspace, where.namespace);
    return {
      reader: new SlackApprovalReader(
        client,
        block.channel,
        where.logger,
        this.channels,
        this.finder,
        this.directory,
      ),
      upstream: `slack/${client.workspace}`,
      budget: approvalBudget(this.env, 'SLACK_APPROVAL_CALLS_PER_MINUTE', SLACK_READS_PER_MINUTE),
      mention: slackMention,
      howToAnswer:
        'React with :white_check_mark: to approve or :x: to reject, or reply `approve` or `reject` in the thread.',
    };
  }
}
