import { providerContextToken, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import type { ApprovalSlot } from '../../approvals/approval-channel.js';
import { MattermostApprovalConfig } from './mattermost-approval-config.dto.js';
import { MattermostApprovalChannels } from './mattermost-approval-channel.js';
import type { MattermostSettings } from './mattermost-settings.js';

/** Mattermost's approvals, on the notifier's servers. */
export const mattermostApproval: ApprovalSlot<MattermostApprovalConfig> = {
  block: MattermostApprovalConfig,
  channels: {
    inject: [providerContextToken('mattermost')],
    useFactory: ({ settings, redactor, timeoutMs }: ProviderContext<MattermostSettings>) =>
      new MattermostApprovalChannels(settings, redactor, timeoutMs),
  },
};
