import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { PluginConfigError, type ExecutionContext, type PluginHandler } from '@app/plugin-kit';
import { ArgoEventClient } from './argo/argo-event-client.js';
import { interpretReply } from './argo/server-reply.js';
import { ArgoEnv } from './config/argo.env.js';
import { WorkflowEventConfig } from './dto/workflow-event-config.dto.js';

/** The header every event carries: the execution key, so a binding can name its workflow after it. */
export const PLUGIN_KEY_HEADER = 'x-argo-plugin-key';

/** Sends one event per execution to the Argo Server's event endpoint. */
@Injectable()
export class EventEmitterHandler implements PluginHandler<WorkflowEventConfig> {
  readonly configClass = WorkflowEventConfig;

  constructor(
    private readonly env: ArgoEnv,
    private readonly client: ArgoEventClient,
  ) {}

  async execute(ctx: ExecutionContext<WorkflowEventConfig>): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const namespace = config.namespace ?? ctx.workflow.namespace;
    this.checkNamespace(namespace, ctx.workflow.namespace);
    const event = {
      namespace,
      discriminator: config.discriminator,
      key: ctx.key,
      baseHref: this.env.ARGO_BASE_HREF ?? '',
    };
    const reply = await this.client.send(
      {
        namespace,
        discriminator: config.discriminator,
        payload: config.payload,
        headers: { ...config.headers, [PLUGIN_KEY_HEADER]: ctx.key },
      },
      ctx.signal,
    );
    ctx.logger.info({ namespace, discriminator: config.discriminator, status: reply.status }, 'event sent');
    return interpretReply(reply, event);
  }

  private checkNamespace(namespace: string, own: string): void {
    const allowed = this.env.namespaces;
    if (allowed === '*' || (allowed ? allowed.has(namespace) : namespace === own)) return;
    const which = allowed ? [...allowed].join(', ') : `only the workflow's own namespace (${own})`;
    throw new PluginConfigError(
      `namespace: events may not be sent to "${namespace}"; the administrator allows ${which} (ARGO_EVENT_NAMESPACES)`,
    );
  }
}
