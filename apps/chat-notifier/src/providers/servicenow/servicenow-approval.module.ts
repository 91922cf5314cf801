import { providerContextToken, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import type { ApprovalSlot } from '../../approvals/approval-channel.js';
import { ServicenowApprovalConfig } from './servicenow-approval-config.dto.js';
import { ServicenowApprovalChannels } from './servicenow-approval-channel.js';
import type { ServicenowInstance } from './servicenow-settings.js';

/** ServiceNow's approvals, on the admin's instances. */
export const servicenowApproval: ApprovalSlot<ServicenowApprovalConfig> = {
  block: ServicenowApprovalConfig,
  channels: {
    inject: [providerContextToken('servicenow')],
    useFactory: ({
      settings,
      redactor,
      timeoutMs,
    }: ProviderContext<ReadonlyMap<string, ServicenowInstance>>) =>
      new ServicenowApprovalChannels(settings, redactor, timeoutMs),
  },
};
