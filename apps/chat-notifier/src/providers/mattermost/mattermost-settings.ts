import {
  EnvInt,
  httpUrlProblem,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamKind,
} from '@app/plugin-kit';
import { IsInt, Max, Min } from '@app/plugin-kit/config/env-rules.js';
import {
  ApprovalCallsPerMinute,
  credentialProblem,
  OptionalCredential,
  OptionalSetting,
  readDestinations,
} from '../../shared/destination-settings.js';

export const mattermostVariables = (Base: EnvClass) => {
  class MattermostVariables extends Base {
    /** The server's address (https://chat.example.com); with MATTERMOST_TOKEN it enables Mattermost. */
    @OptionalSetting()
    MATTERMOST_URL?: string;

    /** A bot account's access token (or a personal access token). */
    @OptionalCredential()
    MATTERMOST_TOKEN?: string;

    /** Recent posts of the channel (or thread) searched for an earlier post after a restart; 0 turns it off. */
    @EnvInt()
    @IsInt()
    @Min(0)
    @Max(1000)
    MATTERMOST_DEDUP_LOOKBACK = 200;

    /** Calls a minute the approval gates may make on each server (unset: 0.8 × its published limit). */
    @ApprovalCallsPerMinute()
    MATTERMOST_APPROVAL_CALLS_PER_MINUTE?: number;
  }
  return MattermostVariables;
};
export type MattermostVariables = InstanceType<ReturnType<typeof mattermostVariables>>;

export interface MattermostServer {
  /** The server's address without a trailing slash, e.g. https://chat.example.com. */
  url: string;
  token: string;
}

export interface MattermostSettings {
  /** Server name → address and token. */
  servers: Map<string, MattermostServer>;
  dedupLookback: number;
}

/** Named servers: `MATTERMOST_<NAME>_URL` and `MATTERMOST_<NAME>_TOKEN` (0.1.0: `MATTERMOST_URL_<NAME>`, …). */
const FAMILY = { prefix: 'MATTERMOST', settings: ['URL', 'TOKEN'], formerSpelling: ['URL', 'TOKEN'] };

export const MATTERMOST_SERVERS: UpstreamKind = {
  provider: 'Mattermost',
  scope: 'mattermost',
  field: 'server',
  enable: 'MATTERMOST_URL and MATTERMOST_TOKEN',
  variablesFor: (name) => `MATTERMOST_${name}_URL and MATTERMOST_${name}_TOKEN`,
};

/** MATTERMOST_URL and MATTERMOST_TOKEN, for the default server and each named one, in pairs. */
export function readMattermostSettings(
  env: MattermostVariables,
  source: EnvSource,
): SettingsRead<MattermostSettings> {
  const { destinations, problems, formerNames } = readDestinations(
    source,
    FAMILY,
    { URL: httpUrlProblem, TOKEN: credentialProblem },
    (values) => ({ url: values.URL!.replace(/\/+$/, ''), token: values.TOKEN! }),
  );
  return {
    settings: { servers: destinations, dedupLookback: env.MATTERMOST_DEDUP_LOOKBACK },
    problems,
    formerNames,
  };
}
