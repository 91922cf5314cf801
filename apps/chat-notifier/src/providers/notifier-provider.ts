import type { Type } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import type { ExecutionContext, ProviderDefinition } from '@app/plugin-kit';

/** One chat or alerting service: sends (or finds) the one message of an execution and names it in outputs. */
export interface NotifierProvider<C extends object = object> {
  execute(ctx: ExecutionContext<C, unknown>): Promise<ExecuteTemplateReply>;
}

/** The Nest side of a provider, loaded with the plugin's module on the first own call. */
export interface ProviderModule<C extends object = object> {
  /** The class of its block under `notify` (its class-validator rules), as every plugin's provider module names it. */
  block: new () => C;
  /** Sends the message: the handler's entry for the provider's key. */
  provider: Type<NotifierProvider<C>>;
  /** The classes it injects that no other provider gives (Slack's client factory, ...). */
  helpers?: Type[];
}

/** A provider of `notify`, as providers/index.ts lists them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own types
export type NotifierProviderDefinition = ProviderDefinition<any, any, ProviderModule>;
