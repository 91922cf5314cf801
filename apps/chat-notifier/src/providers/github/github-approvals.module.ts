import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { Redactor } from '@app/plugin-kit';
import type { ApprovalModule, ApprovalReaders, BlockReader } from '../../approvals/approval-provider.js';
import { blockReader, type BlockTraits } from '../../approvals/block-reader.js';
import { NotifierEnv } from '../../config/notifier.env.js';
import { GithubApprovalConfig } from './github-approval-config.dto.js';
import { GithubApprovalReaders } from './github-approvals.js';
import { github } from './index.js';

const TRAITS: BlockTraits<GithubApprovalConfig> = {
  key: 'github',
  budgetVariable: 'APPROVALS_GITHUB_CALLS_PER_MINUTE',
  destination: (block) => block.account,
  mention: (login) => `@${login.replace(/^@/, '')}`,
  howToAnswer: 'Comment `/approve` or `/deny` (an edited comment does not count).',
};

/** Makes the reader of an `approve: {github: …}` block, on the admin's accounts and repositories. */
@Injectable()
export class GithubApprovalBlocks implements ApprovalReaders<GithubApprovalConfig> {
  private readonly readers: GithubApprovalReaders;

  constructor(
    private readonly env: NotifierEnv,
    redactor: Redactor,
  ) {
    const timeoutMs = parseDuration(env.NOTIFY_REQUEST_TIMEOUT);
    this.readers = new GithubApprovalReaders(env.settingsOf(github), redactor, timeoutMs);
  }

  readerFor(block: GithubApprovalConfig, where: { namespace: string }): BlockReader {
    return blockReader(this.env, this.readers, TRAITS, block, where.namespace);
  }
}

export const githubApprovals: ApprovalModule<GithubApprovalConfig> = {
  config: GithubApprovalConfig,
  readers: GithubApprovalBlocks,
};
