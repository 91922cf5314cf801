import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { parseDuration } from '@app/contract';
import { Redactor, succeeded, type ExecutionContext } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { AxiosInstance } from 'axios';
import { pickDestination, type DestinationKind } from '../../config/named-destinations.js';
import { NotifierEnv } from '../../config/notifier.env.js';
import type { TeamsConfig } from '../../dto/teams-config.dto.js';
import type { NotifierProvider } from '../notifier-provider.js';
import { withHint } from '../upstream-hints.js';
import { renderAdaptiveCard } from './adaptive-card.js';

const WEBHOOKS: DestinationKind = {
  provider: 'Microsoft Teams',
  scope: 'teams',
  field: 'webhook',
  enable: 'TEAMS_WEBHOOK_URL',
  variablesFor: (name) => `TEAMS_WEBHOOK_URL_${name}`,
};

/** Power Automate's error body: `{error: {code, message}}`. */
function describe(data: unknown): string | undefined {
  const e = (data as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (typeof e?.message !== 'string') return undefined;
  return typeof e.code === 'string' ? `${e.message} (${e.code})` : e.message;
}

/**
 * Microsoft Teams through a Workflows (Power Automate) webhook: an Adaptive Card in the status style, with
 * facts and @mentions. The webhook answers 202 with no message id and Teams offers no way to look a
 * message up or to send with an idempotency key, so: no replies, no edits, and one message per execution
 * only within a sidecar's life (a restart, or a send whose answer was lost, sends again — see docs).
 */
@Injectable()
export class TeamsProvider implements NotifierProvider<TeamsConfig> {
  private readonly clients = new Map<string, { http: AxiosInstance; name: string }>();
  private readonly timeoutMs: number;

  constructor(
    private readonly env: NotifierEnv,
    redactor: Redactor,
  ) {
    this.timeoutMs = parseDuration(env.NOTIFY_REQUEST_TIMEOUT);
    for (const url of env.teams.values()) {
      const sig = new URL(url).searchParams.get('sig')!;
      redactor.add(sig, encodeURIComponent(sig));
    }
  }

  async execute(ctx: ExecutionContext<TeamsConfig, { sent?: boolean }>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const { http, name } = this.client(config.webhook, ctx.workflow.namespace);
    if (!ctx.state.get()?.sent) {
      try {
        await http.post('', renderAdaptiveCard(config));
      } catch (err) {
        const variable = name === 'default' ? 'TEAMS_WEBHOOK_URL' : `TEAMS_WEBHOOK_URL_${name.toUpperCase()}`;
        throw withHint(err, {
          401: `webhook "${name}" was refused: its URL is wrong or its flow was recreated; the admin copies the flow's URL again into ${variable}`,
          404: `the flow behind webhook "${name}" was deleted or turned off (the admin checks ${variable})`,
        });
      }
      await ctx.state.set({ sent: true });
    }
    return succeeded({}, `posted an Adaptive Card through Teams webhook ${name} (Teams gives no message id)`);
  }

  private client(webhook: string | undefined, namespace: string): { http: AxiosInstance; name: string } {
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const destination = pickDestination(WEBHOOKS, this.env.teams, webhook, {
      scopes: this.env.scopes,
      namespace,
    });
    const name = (webhook ?? 'default').toLowerCase();
    let client = this.clients.get(name);
    if (!client) {
      const url = new URL(destination);
      const http = createUpstreamClient({
        upstream: 'teams',
        baseURL: `${url.origin}${url.pathname}`,
        timeoutMs: this.timeoutMs,
        describe: (response) => describe(response.data),
      });
      // The query (api-version, sp, sv, sig) goes with every call; it stays out of paths in messages.
      http.defaults.params = Object.fromEntries(url.searchParams);
      client = { http, name };
      this.clients.set(name, client);
    }
    return client;
  }
}
