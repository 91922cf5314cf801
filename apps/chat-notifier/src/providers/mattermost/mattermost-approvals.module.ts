import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { Redactor } from '@app/plugin-kit';
import type { ApprovalModule, ApprovalReaders, BlockReader } from '../../approvals/approval-provider.js';
import { blockReader, type BlockTraits } from '../../approvals/block-reader.js';
import { NotifierEnv } from '../../config/notifier.env.js';
import { MattermostApprovalConfig } from './mattermost-approval-config.dto.js';
import { MattermostApprovalReaders } from './mattermost-approvals.js';
import { MATTERMOST_ID } from './mattermost-block.dto.js';
import { mattermost } from './index.js';

/** `@alice` for a username; a user ID or a group as it is (Mattermost shows no mention for those). */
function mattermostMention(approver: string): string {
  return approver.startsWith('@') || approver.startsWith('group:') || MATTERMOST_ID.test(approver)
    ? approver
    : `@${approver}`;
}

const TRAITS: BlockTraits<MattermostApprovalConfig> = {
  key: 'mattermost',
  budgetVariable: 'MATTERMOST_APPROVAL_CALLS_PER_MINUTE',
  destination: (block) => block.server,
  mention: mattermostMention,
  howToAnswer:
    'React with :white_check_mark: or :+1: to approve, :x: or :-1: to reject, or reply `approve` or `reject` in the thread.',
};

/** Makes the reader of an `approve: {mattermost: …}` block, on the notifier's servers. */
@Injectable()
export class MattermostApprovalBlocks implements ApprovalReaders<MattermostApprovalConfig> {
  private readonly readers: MattermostApprovalReaders;

  constructor(
    private readonly env: NotifierEnv,
    redactor: Redactor,
  ) {
    const timeoutMs = parseDuration(env.NOTIFY_REQUEST_TIMEOUT);
    this.readers = new MattermostApprovalReaders(env.settingsOf(mattermost), redactor, timeoutMs);
  }

  readerFor(block: MattermostApprovalConfig, where: { namespace: string }): BlockReader {
    return blockReader(this.env, this.readers, TRAITS, block, where.namespace);
  }
}

export const mattermostApprovals: ApprovalModule<MattermostApprovalConfig> = {
  config: MattermostApprovalConfig,
  readers: MattermostApprovalBlocks,
};
