import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { EnvInt, IsGoDuration, NamespaceScopes, Secret, type EnvExtras } from '@app/plugin-kit';
import { DEFAULT_WORKSPACE, readNamedTokens, type EnvSource } from './slack-tokens.js';

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/**
 * Admin configuration of the Slack sidecar (from the pod env; tokens only through secretKeyRef). Workflow
 * authors choose a workspace by name, never a token or a URL.
 */
export class SlackEnv implements EnvExtras {
  /** Bot token of the default workspace (xoxb-…). */
  @Secret()
  @trim
  @IsString()
  @IsNotEmpty()
  @Matches(/^xox\S*$/, { message: 'must be a Slack bot token (xoxb-…) without spaces or line breaks' })
  SLACK_BOT_TOKEN!: string;

  /** Web API base URL: Slack's own, a proxy, or a stand-in in tests. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
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

  /**
   * Which namespaces may use which workspace: `slack/ops=team-ops,sre-*; slack/default=*`
   * (docs/slack-notifier.md). Unset: every workspace is open to every namespace.
   */
  @IsOptional()
  @IsString()
  NAMESPACE_SCOPES?: string;

  /** Workspace name (lower case) → bot token, the default workspace included. Filled by loadExtras. */
  workspaces = new Map<string, string>();

  /** Filled by loadExtras from NAMESPACE_SCOPES. */
  scopes = NamespaceScopes.unrestricted;

  loadExtras(source: EnvSource): string[] {
    const { tokens, problems } = readNamedTokens(source);
    this.workspaces = new Map([[DEFAULT_WORKSPACE, this.SLACK_BOT_TOKEN], ...tokens]);
    const scoped = NamespaceScopes.parse(this.NAMESPACE_SCOPES, {
      noun: 'workspace',
      configured: { slack: this.workspaces.keys() },
      normalize: (name) => name.toLowerCase(),
    });
    this.scopes = scoped.scopes;
    return [...problems, ...scoped.problems];
  }
}
