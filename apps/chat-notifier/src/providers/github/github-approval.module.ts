import { providerContextToken, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import type { ApprovalSlot } from '../../approvals/approval-channel.js';
import { GithubApprovalConfig } from './github-approval-config.dto.js';
import { GithubApprovalChannels } from './github-approval-channel.js';
import type { GithubAccount } from './github-settings.js';

/** GitHub's approvals, on the admin's accounts and repositories. */
export const githubApproval: ApprovalSlot<GithubApprovalConfig> = {
  block: GithubApprovalConfig,
  channels: {
    inject: [providerContextToken('github')],
    useFactory: ({ settings, redactor, timeoutMs }: ProviderContext<ReadonlyMap<string, GithubAccount>>) =>
      new GithubApprovalChannels(settings, redactor, timeoutMs),
  },
};
