import { Inject, Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import type { ConfigClass, ExecutionContext, PluginHandler } from '@app/plugin-kit';
import { ApprovalGate, type ApproveBody, type GateState } from './approval-gate.js';

/** The class of the `approve` body, made from the approval providers' block classes. */
export const APPROVE_CONFIG = Symbol.for('chat-notifier.approve-config');

/** The plugin's entry `approve` (`plugin: {approve: {<provider>: {...}}}`): an approval gate. */
@Injectable()
export class ApproveHandler implements PluginHandler<ApproveBody, GateState> {
  constructor(
    @Inject(APPROVE_CONFIG) readonly configClass: ConfigClass<ApproveBody>,
    private readonly gate: ApprovalGate,
  ) {}

  execute(ctx: ExecutionContext<ApproveBody, GateState>): Promise<ExecuteTemplateReply> {
    return this.gate.execute(ctx);
  }
}
