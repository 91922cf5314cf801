import { upstreamId, type UpstreamAccess } from '@app/plugin-kit';
import type { NotifierEnv } from '../config/notifier.env.js';
import type { ApprovalBlock, BlockReader } from './approval-provider.js';
import type { ApprovalReader } from './approval-reader.js';
import { approvalBudget } from './poll-schedule.js';

/** A provider's readers of one sidecar: the reader of a block, for a workflow's namespace. */
export interface ReadersOfBlocks<C> {
  reader(block: C, access: UpstreamAccess): ApprovalReader;
}

/** What a provider's gates show and spend besides its reader: see BlockReader. */
export interface BlockTraits<C> {
  /** The provider's key: the upstream is `<key>/<destination>`. */
  key: string;
  /** Its `<PROVIDER>_APPROVAL_CALLS_PER_MINUTE`. */
  budgetVariable: string;
  /** The destination a block names (`server`, `bot`, `account`); the default one when undefined. */
  destination(block: C): string | undefined;
  mention(approver: string): string;
  howToAnswer: string;
}

/** The BlockReader of `block` for a provider whose readers are built once per sidecar from the notifier's settings. */
export function blockReader<C>(
  env: NotifierEnv,
  readers: ReadersOfBlocks<C>,
  traits: BlockTraits<C>,
  block: C & ApprovalBlock,
  namespace: string,
): BlockReader {
  const reader = readers.reader(block, { scopes: env.scopes, namespace });
  return {
    reader,
    budget: approvalBudget(env, traits.budgetVariable, reader.callsPerMinute),
    upstream: `${traits.key}/${upstreamId(traits.destination(block))}`,
    mention: traits.mention,
    howToAnswer: traits.howToAnswer,
  };
}
