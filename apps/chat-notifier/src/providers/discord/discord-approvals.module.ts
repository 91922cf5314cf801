import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { Redactor } from '@app/plugin-kit';
import type { ApprovalModule, ApprovalReaders, BlockReader } from '../../approvals/approval-provider.js';
import { blockReader, type BlockTraits } from '../../approvals/block-reader.js';
import { NotifierEnv } from '../../config/notifier.env.js';
import { DiscordApprovalConfig } from './discord-approval-config.dto.js';
import { DiscordApprovalReaders } from './discord-approvals.js';
import { discord } from './index.js';

const TRAITS: BlockTraits<DiscordApprovalConfig> = {
  key: 'discord',
  budgetVariable: 'DISCORD_APPROVAL_CALLS_PER_MINUTE',
  destination: (block) => block.bot,
  mention: (user) => `<@${user.replace(/[<@>]/g, '')}>`,
  howToAnswer: 'React with ✅ or 👍 to approve, ❌ or 👎 to reject.',
};

/** Makes the reader of an `approve: {discord: …}` block, on the notifier's bots. */
@Injectable()
export class DiscordApprovalBlocks implements ApprovalReaders<DiscordApprovalConfig> {
  private readonly readers: DiscordApprovalReaders;

  constructor(
    private readonly env: NotifierEnv,
    redactor: Redactor,
  ) {
    const { bots, webhooks } = env.settingsOf(discord);
    const timeoutMs = parseDuration(env.NOTIFY_REQUEST_TIMEOUT);
    this.readers = new DiscordApprovalReaders(bots, webhooks.size > 0, redactor, timeoutMs);
  }

  readerFor(block: DiscordApprovalConfig, where: { namespace: string }): BlockReader {
    return blockReader(this.env, this.readers, TRAITS, block, where.namespace);
  }
}

export const discordApprovals: ApprovalModule<DiscordApprovalConfig> = {
  config: DiscordApprovalConfig,
  readers: DiscordApprovalBlocks,
};
