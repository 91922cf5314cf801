import {
  DEFAULT_UPSTREAM,
  EnvInt,
  readUpstreams,
  upstreamVariable,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamKind,
} from '@app/plugin-kit';
import {
  IsGoDuration,
  IsHttpUrl,
  IsInt,
  IsNotEmpty,
  Matches,
  Max,
  Min,
} from '@app/plugin-kit/config/env-rules.js';
import { ApprovalCallsPerMinute, OptionalCredential } from '../../shared/destination-settings.js';

/** Slack's variables: the default workspace's bot token and the Web API client's settings. */
export const slackVariables = (Base: EnvClass) => {
  class SlackVariables extends Base {
    /** Bot token of the default Slack workspace (xoxb-…). */
    @OptionalCredential()
    @IsNotEmpty()
    @Matches(/^xox\S*$/, { message: 'must be a Slack bot token (xoxb-…) without spaces or line breaks' })
    SLACK_BOT_TOKEN?: string;

    /** Web API base URL: Slack's own, a proxy, or a stand-in in tests. */
    @IsHttpUrl()
    SLACK_API_URL = 'https://slack.com/api/';

    /**
     * How many recent messages of the channel (or thread) are searched for an earlier post of the same
     * execution when this process has no record of it (after a sidecar restart). 0 turns the search off.
     */
    @EnvInt()
    @IsInt()
    @Min(0)
    @Max(1000)
    SLACK_DEDUP_LOOKBACK = 200;

    /** How long channel name → ID lookups are cached per workspace. */
    @IsGoDuration({ min: '0s', max: '24h' })
    SLACK_CHANNEL_CACHE_TTL = '10m';

    /** Timeout of one Slack request; well below the kit's 20 s call deadline. */
    @IsGoDuration({ min: '100ms', max: '15s' })
    SLACK_REQUEST_TIMEOUT = '8s';

    /** Calls a minute the approval gates may make on each workspace, per method (unset: 0.8 × its published limit). */
    @ApprovalCallsPerMinute()
    SLACK_APPROVAL_CALLS_PER_MINUTE?: number;
  }
  return SlackVariables;
};
export type SlackVariables = InstanceType<ReturnType<typeof slackVariables>>;

export interface SlackSettings {
  /** Workspace name (lower case, `default` for SLACK_BOT_TOKEN) → bot token. */
  workspaces: Map<string, string>;
  apiUrl: string;
  dedupLookback: number;
  channelCacheTtl: string;
  requestTimeout: string;
}

/** Named workspaces: `SLACK_<NAME>_BOT_TOKEN` (0.1.0: `SLACK_BOT_TOKEN_<NAME>`), chosen with `workspace: <name>`. */
export const SLACK_FAMILY = { prefix: 'SLACK', settings: ['BOT_TOKEN'], formerSpelling: ['BOT_TOKEN'] };

export const SLACK_WORKSPACES: UpstreamKind = {
  provider: 'Slack',
  scope: 'slack',
  field: 'workspace',
  enable: 'SLACK_BOT_TOKEN',
  variablesFor: (name) => `SLACK_${name}_BOT_TOKEN`,
};

/** The variable of a workspace's bot token: `SLACK_BOT_TOKEN`, `SLACK_OPS_BOT_TOKEN`. */
export function tokenVariable(workspace: string): string {
  return upstreamVariable(SLACK_FAMILY, workspace, 'BOT_TOKEN');
}

/**
 * Slack tokens start with `xox` (`xoxb-` bot, `xoxp-` user, `xoxe.xoxb-` rotating) and never contain
 * whitespace. Surrounding whitespace is dropped: a Secret created with `echo` ends in a newline.
 */
export function tokenProblem(token: string): string | undefined {
  if (!token.startsWith('xox')) return 'must be a Slack bot token (xoxb-…)';
  if (/\s/.test(token)) return 'must be a Slack bot token without spaces or line breaks';
  return undefined;
}

export function readSlackSettings(env: SlackVariables, source: EnvSource): SettingsRead<SlackSettings> {
  const { upstreams, problems, formerNames } = readUpstreams(source, SLACK_FAMILY);
  const workspaces = new Map<string, string>();
  for (const [name, workspace] of upstreams) {
    const token = workspace.values.BOT_TOKEN!;
    // SLACK_BOT_TOKEN's own rules have checked it already.
    const problem = name === DEFAULT_UPSTREAM ? undefined : tokenProblem(token);
    if (problem) problems.push(`${workspace.variable('BOT_TOKEN')}: ${problem}`);
    else workspaces.set(name, token);
  }
  return {
    settings: {
      workspaces,
      apiUrl: env.SLACK_API_URL,
      dedupLookback: env.SLACK_DEDUP_LOOKBACK,
      channelCacheTtl: env.SLACK_CHANNEL_CACHE_TTL,
      requestTimeout: env.SLACK_REQUEST_TIMEOUT,
    },
    problems,
    formerNames,
  };
}
