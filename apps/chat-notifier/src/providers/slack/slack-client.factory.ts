import { Injectable } from '@nestjs/common';
import { WebClient, type FetchFunction } from '@slack/web-api';
import { parseDuration } from '@app/contract';
import { UpstreamClients } from '@app/plugin-kit';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import { apiScopedFetch } from './api-scoped-fetch.js';
import { SLACK_WORKSPACES, type SlackSettings } from './slack-settings.js';
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
  private readonly clients: UpstreamClients<string, WorkspaceClient>;

  constructor(@InjectProviderContext('slack') private readonly context: ProviderContext<SlackSettings>) {
    const { settings, redactor } = context;
    // The env values may have been trimmed, so the exact strings sent to Slack are registered too.
    for (const token of settings.workspaces.values()) redactor.add(token);
    this.clients = new UpstreamClients(SLACK_WORKSPACES, settings.workspaces, (token, name) =>
      this.create(name, token, settings),
    );
  }

  /**
   * The clients of `workspace` (the default one when absent) for a workflow of `namespace`. A name that is
   * not configured, or not open to the namespace (NAMESPACE_SCOPES), is a config error; both read the same and
   * list only the workspaces open to the namespace.
   */
  forWorkspace(workspace: string | undefined, namespace: string): WorkspaceClient {
    return this.clients.get(workspace, { scopes: this.context.scopes, namespace });
  }

  private create(name: string, token: string, settings: SlackSettings): WorkspaceClient {
    const slackApiUrl = settings.apiUrl.endsWith('/') ? settings.apiUrl : `${settings.apiUrl}/`;
    const timeoutMs = parseDuration(settings.requestTimeout);
    const fetch = apiScopedFetch(slackApiUrl);
    const logger = new SlackLoggerAdapter(
      this.context.logger.child({ component: 'slack-web-api', workspace: name }),
    );
    const common = {
      slackApiUrl,
      logger,
      timeout: timeoutMs,
      fetch,
      rejectRateLimitedCalls: true,
      allowAbsoluteUrls: false,
      maxRequestConcurrency: 8,
    };
    return {
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
  }
}
