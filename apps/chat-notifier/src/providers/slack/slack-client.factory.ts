import { Injectable } from '@nestjs/common';
import { WebClient, type FetchFunction } from '@slack/web-api';
import { parseDuration } from '@app/contract';
import { PluginConfigError, PluginLogger, Redactor } from '@app/plugin-kit';
import { NotifierEnv } from '../../config/notifier.env.js';
import { DEFAULT_WORKSPACE } from './slack-settings.js';
import { apiScopedFetch } from './api-scoped-fetch.js';
import { SlackLoggerAdapter } from './slack-logger.adapter.js';

/** The clients of one workspace. */
export interface WorkspaceClient {
  workspace: string;
  /** Idempotent reads (lists, history, permalinks): a couple of quick retries on network errors and 5xx. */
  reads: WebClient;
  /** Posts, edits and uploads: never retried blindly, since a lost reply may hide a message that was posted. */
  writes: WebClient;
  /** For the upload URL Slack hands out (the token is never sent there). */
  fetch: FetchFunction;
  /** The origin of SLACK_API_URL: an upload URL on it is followed too (a proxy, the stand-in). */
  apiOrigin: string;
  timeoutMs: number;
}

@Injectable()
export class SlackClientFactory {
  private readonly clients = new Map<string, WorkspaceClient>();

  constructor(
    private readonly env: NotifierEnv,
    private readonly logger: PluginLogger,
    redactor: Redactor,
  ) {
    // The env values may have been trimmed, so the exact strings sent to Slack are registered too.
    for (const token of env.workspaces.values()) redactor.add(token);
  }

  /**
   * The clients of `workspace` (the default one when absent) for a workflow of `namespace`. A name that is
   * not configured, or not open to the namespace (NAMESPACE_SCOPES), is a config error; both read the same and
   * list only the workspaces open to the namespace.
   */
  forWorkspace(workspace: string | undefined, namespace: string): WorkspaceClient {
    const name = (workspace ?? DEFAULT_WORKSPACE).toLowerCase();
    const token = this.env.workspaces.get(name);
    if (this.env.workspaces.size === 0) {
      throw new PluginConfigError(
        'no Slack workspace is configured for this sidecar (the admin sets SLACK_BOT_TOKEN, or SLACK_BOT_TOKEN_<NAME> for named workspaces)',
      );
    }
    if (!token || !this.env.scopes.allows('slack', name, namespace)) {
      const open = this.env.scopes.allowed('slack', this.env.workspaces.keys(), namespace);
      throw new PluginConfigError(
        `workspace: no workspace "${workspace ?? DEFAULT_WORKSPACE}" for namespace ${namespace} (known: ${open.join(', ') || 'none'}); the admin adds one with SLACK_BOT_TOKEN_${name.toUpperCase()}`,
      );
    }
    const existing = this.clients.get(name);
    if (existing) return existing;
    const slackApiUrl = this.env.SLACK_API_URL.endsWith('/')
      ? this.env.SLACK_API_URL
      : `${this.env.SLACK_API_URL}/`;
    const timeoutMs = parseDuration(this.env.SLACK_REQUEST_TIMEOUT);
    const fetch = apiScopedFetch(slackApiUrl);
    const logger = new SlackLoggerAdapter(this.logger.child({ component: 'slack-web-api', workspace: name }));
    const common = {
      slackApiUrl,
      logger,
      timeout: timeoutMs,
      fetch,
      rejectRateLimitedCalls: true,
      allowAbsoluteUrls: false,
      maxRequestConcurrency: 8,
    };
    const client: WorkspaceClient = {
      workspace: name,
      reads: new WebClient(token, {
        ...common,
        retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 1000 },
      }),
      writes: new WebClient(token, { ...common, retryConfig: { retries: 0 } }),
      fetch,
      apiOrigin: new URL(slackApiUrl).origin,
      timeoutMs,
    };
    this.clients.set(name, client);
    return client;
  }
}
