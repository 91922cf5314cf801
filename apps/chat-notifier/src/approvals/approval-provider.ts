import type { Type } from '@nestjs/common';
import type { PluginLogger } from '@app/plugin-kit';
import type { ApprovalReader } from './approval-reader.js';

/** What every provider's `approve` block has: the request's text and who may answer it. */
export interface ApprovalBlock {
  text: string;
  /** Users and groups in the provider's own ids; anyone else's answer is ignored. */
  approvers: string[];
}

/** A provider's reader of one block, and the upstream whose read budget it spends. */
export interface BlockReader {
  reader: ApprovalReader;
  /**
   * The account the calls count against (`slack/default`): the open gates of one upstream share its
   * `callsPerMinute`. The same upstream gives the same name.
   */
  upstream: string;
  /**
   * The calls a minute every gate of this sidecar on `upstream` may make together: the admin's
   * `<PROVIDER>_APPROVAL_CALLS_PER_MINUTE` (GitHub's: `APPROVALS_GITHUB_CALLS_PER_MINUTE`), else 0.8 × the reader's `callsPerMinute` (approvalBudget).
   */
  budget: number;
  /** How a user id is written so the chat shows the person (`<@U0123>` in Slack); the id as it is otherwise. */
  mention(user: string): string;
  /** The request's last sentence: how to answer (which reactions, which replies). */
  howToAnswer: string;
}

/** The Nest class that makes a provider's readers (it injects the provider's clients and settings). */
export interface ApprovalReaders<C extends ApprovalBlock = ApprovalBlock> {
  /**
   * The reader of one block for a workflow of `namespace`; a destination the namespace may not use, or one not
   * configured, is a PluginConfigError naming the field.
   */
  readerFor(block: C, where: { namespace: string; logger: PluginLogger }): BlockReader;
}

/** The Nest side of one provider's approvals, loaded with the plugin's module. */
export interface ApprovalModule<C extends ApprovalBlock = ApprovalBlock> {
  /** The class of its block under `approve` (its class-validator rules). */
  config: new () => C;
  readers: Type<ApprovalReaders<C>>;
  /** Classes it injects that the notifier's module does not already provide. */
  helpers?: Type[];
}

/** One row of the approvals table: the provider's key under `approve` and its lazily loaded module. */
export interface ApprovalProvider {
  key: string;
  load(): Promise<ApprovalModule>;
}
