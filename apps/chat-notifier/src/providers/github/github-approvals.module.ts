import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { Redactor, upstreamId } from '@app/plugin-kit';
import type { ApprovalModule, ApprovalReaders, BlockReader } from '../../approvals/approval-provider.js';
import { approvalBudget } from '../../approvals/poll-schedule.js';
import { NotifierEnv } from '../../config/notifier.env.js';
import { GithubApprovalConfig } from './github-approval-config.dto.js';
import { GithubApprovalReaders } from './github-approvals.js';
import { github } from './index.js';

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
    const reader = this.readers.reader(block, { scopes: this.env.scopes, namespace: where.namespace });
    return {
      reader,
      budget: approvalBudget(this.env, 'APPROVALS_GITHUB_CALLS_PER_MINUTE', reader.callsPerMinute),
      upstream: `github/${upstreamId(block.account)}`,
      mention: (login) => `@${login.replace(/^@/, '')}`,
      howToAnswer: 'Comment `/approve` or `/deny` (an edited comment does not count).',
    };
  }
}

export const githubApprovals: ApprovalModule<GithubApprovalConfig> = {
  config: GithubApprovalConfig,
  readers: GithubApprovalBlocks,
};
