import type { ExecuteTemplateReply } from '@app/contract';
import type { ExecutionContext } from '@app/plugin-kit';

/** One chat or alerting service: sends (or finds) the one message of an execution and names it in outputs. */
export interface NotifierProvider<C extends object = object> {
  execute(ctx: ExecutionContext<C, unknown>): Promise<ExecuteTemplateReply>;
}
