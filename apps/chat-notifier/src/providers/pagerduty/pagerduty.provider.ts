import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { succeeded, UpstreamClients, type ExecutionContext } from '@app/plugin-kit';
import { clip } from '@app/plugin-kit/upstream/error-detail.js';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import { PagerDutyConfig, type Severity } from './pagerduty-block.dto.js';
import type { Status } from '../../shared/status-style.js';
import type { NotifierProvider, ProviderModule } from '../notifier-provider.js';
import { PagerDutyEvents, type PagerDutyEvent } from './pagerduty-events.js';
import { PAGERDUTY_SERVICES, type PagerDutySettings } from './pagerduty-settings.js';

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
  private readonly clients: UpstreamClients<string, PagerDutyEvents>;

  constructor(
    @InjectProviderContext('pagerduty') private readonly context: ProviderContext<PagerDutySettings>,
  ) {
    const { timeoutMs, redactor } = context;
    const { services, eventsUrl } = context.settings;
    for (const key of services.values()) redactor.add(key);
    this.clients = new UpstreamClients(
      PAGERDUTY_SERVICES,
      services,
      (key, name) => new PagerDutyEvents(name, key, eventsUrl, timeoutMs),
    );
  }

  async execute(
    ctx: ExecutionContext<PagerDutyConfig, { dedupKey?: string }>,
  ): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const state = ctx.state.get() ?? {};
    if (!state.dedupKey) {
      const dedupKey = config.dedupKey ?? `argo-${ctx.key.slice(0, 40)}`;
      // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
      const events = this.clients.get(config.service, {
        scopes: this.context.scopes,
        namespace: ctx.workflow.namespace,
      });
      const sent = await events.send(this.event(ctx, dedupKey));
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
        summary: clip(summary, SUMMARY_LIMIT),
        source: config.source ?? `argo-workflows/${workflow.namespace}/${workflow.name}`,
        severity: config.severity ?? SEVERITY_OF[config.status ?? 'info'],
        ...(config.component && { component: config.component }),
        ...(config.group && { group: config.group }),
        ...(config.class && { class: config.class }),
        custom_details: details,
      },
    };
  }
}

/** What the definition's `load()` gives: the block class and the Nest provider. */
export const pagerDutyModule: ProviderModule<PagerDutyConfig> = {
  block: PagerDutyConfig,
  provider: PagerDutyProvider,
};
