import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { parseDuration } from '@app/contract';
import { Redactor, succeeded, type ExecutionContext } from '@app/plugin-kit';
import { pickDestination, type DestinationKind } from '../../config/named-destinations.js';
import { NotifierEnv } from '../../config/notifier.env.js';
import type { PagerDutyConfig, Severity } from './pagerduty-config.dto.js';
import type { Status } from '../../shared/status-style.js';
import type { NotifierProvider } from '../notifier-provider.js';
import { PagerDutyEvents, type PagerDutyEvent } from './pagerduty-events.js';

const SERVICES: DestinationKind = {
  provider: 'PagerDuty',
  scope: 'pagerduty',
  field: 'service',
  enable: 'PAGERDUTY_ROUTING_KEY',
  variablesFor: (name) => `PAGERDUTY_ROUTING_KEY_${name}`,
};

const SEVERITY_OF: Record<Status, Severity> = {
  failed: 'error',
  warning: 'warning',
  succeeded: 'info',
  running: 'info',
  info: 'info',
};

const SUMMARY_LIMIT = 1024;

/**
 * PagerDuty Events API v2: trigger, acknowledge or resolve an alert. Idempotent by design: every event of an
 * execution carries the same `dedup_key` (the author's, or one derived from the execution key), and
 * PagerDuty folds a repeated trigger into the open alert and ignores a repeated acknowledge or resolve — so
 * requeues, retries and sidecar restarts never open a second alert.
 */
@Injectable()
export class PagerDutyProvider implements NotifierProvider<PagerDutyConfig> {
  private readonly clients = new Map<string, PagerDutyEvents>();
  private readonly timeoutMs: number;

  constructor(
    private readonly env: NotifierEnv,
    redactor: Redactor,
  ) {
    this.timeoutMs = parseDuration(env.NOTIFY_REQUEST_TIMEOUT);
    for (const key of env.pagerduty.values()) redactor.add(key);
  }

  async execute(
    ctx: ExecutionContext<PagerDutyConfig, { dedupKey?: string }>,
  ): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const state = ctx.state.get() ?? {};
    if (!state.dedupKey) {
      const dedupKey = config.dedupKey ?? `argo-${ctx.key.slice(0, 40)}`;
      const sent = await this.client(config.service, ctx.workflow.namespace).send(this.event(ctx, dedupKey));
      state.dedupKey = sent.dedupKey;
      await ctx.state.set(state);
    }
    const service = config.service ?? 'default';
    const verb = { trigger: 'triggered', acknowledge: 'acknowledged', resolve: 'resolved' }[config.action];
    return succeeded(
      { id: state.dedupKey, dedupKey: state.dedupKey },
      `${verb} alert ${state.dedupKey} (service ${service})`,
    );
  }

  private event(ctx: ExecutionContext<PagerDutyConfig, unknown>, dedupKey: string): PagerDutyEvent {
    const { config, workflow } = ctx;
    if (config.action !== 'trigger') return { event_action: config.action, dedup_key: dedupKey };
    const summary =
      config.title ?? config.text ?? (config.fields ?? []).map((f) => `${f.name}: ${f.value}`).join(', ');
    const details = Object.fromEntries([
      ...(config.title && config.text ? [['text', config.text]] : []),
      ...(config.fields ?? []).map((f) => [f.name, f.value]),
      ['workflow', `${workflow.namespace}/${workflow.name}`],
    ]) as Record<string, string>;
    return {
      event_action: 'trigger',
      dedup_key: dedupKey,
      client: 'Argo Workflows',
      payload: {
        summary: summary.length > SUMMARY_LIMIT ? `${summary.slice(0, SUMMARY_LIMIT - 1)}…` : summary,
        source: config.source ?? `argo-workflows/${workflow.namespace}/${workflow.name}`,
        severity: config.severity ?? SEVERITY_OF[config.status ?? 'info'],
        ...(config.component && { component: config.component }),
        ...(config.group && { group: config.group }),
        ...(config.class && { class: config.class }),
        custom_details: details,
      },
    };
  }

  private client(service: string | undefined, namespace: string): PagerDutyEvents {
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const destination = pickDestination(SERVICES, this.env.pagerduty, service, {
      scopes: this.env.scopes,
      namespace,
    });
    const name = (service ?? 'default').toLowerCase();
    let client = this.clients.get(name);
    if (!client) {
      const key = destination;
      client = new PagerDutyEvents(name, key, this.env.PAGERDUTY_EVENTS_URL, this.timeoutMs);
      this.clients.set(name, client);
    }
    return client;
  }
}
