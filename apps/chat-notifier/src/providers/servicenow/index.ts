import {
  ApprovalCallsPerMinute,
  OptionalCredential,
  OptionalSetting,
} from '../../shared/destination-settings.js';
import { defineProviderSettings, type EnvClass } from '@app/plugin-kit';
import { readServicenowInstances } from './servicenow-settings.js';

export const servicenowVariables = (Base: EnvClass) => {
  class ServicenowVariables extends Base {
    /** The instance: https://<instance>.service-now.com. */
    @OptionalSetting()
    APPROVALS_SERVICENOW_URL?: string;

    /** The user_name of the account the gates act as. */
    @OptionalSetting()
    APPROVALS_SERVICENOW_USER?: string;

    /** Its password (basic auth); or APPROVALS_SERVICENOW_TOKEN. */
    @OptionalCredential()
    APPROVALS_SERVICENOW_PASSWORD?: string;

    /** An OAuth access token of that account (Authorization: Bearer); or APPROVALS_SERVICENOW_PASSWORD. */
    @OptionalCredential()
    APPROVALS_SERVICENOW_TOKEN?: string;

    /** Calls a minute the approval gates may make on each instance (unset: 0.8 × SERVICENOW_CALLS_PER_MINUTE). */
    @ApprovalCallsPerMinute()
    APPROVALS_SERVICENOW_CALLS_PER_MINUTE?: number;
  }
  return ServicenowVariables;
};

/** ServiceNow: approval gates only (a change request's approval decides); nothing to `notify`. */
export const servicenow = defineProviderSettings({
  key: 'servicenow',
  variables: servicenowVariables,
  prefixes: ['APPROVALS_SERVICENOW_'],
  enable: 'APPROVALS_SERVICENOW_URL, APPROVALS_SERVICENOW_USER and APPROVALS_SERVICENOW_PASSWORD (or _TOKEN)',
  scopeKinds: ['servicenow'],
  read: (_env, source) => {
    const { instances, problems } = readServicenowInstances(source);
    return { settings: instances, problems };
  },
  configured: (instances) => instances.size > 0,
  destinations: (instances) => ({ servicenow: instances.keys() }),
  approval: { load: async () => (await import('./servicenow-approval.module.js')).servicenowApproval },
});
