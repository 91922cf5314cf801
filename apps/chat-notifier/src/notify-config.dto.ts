import { Allow } from 'class-validator';
import type { ConfigClass } from '@app/plugin-kit';
import { withProviderBlocks } from '@app/plugin-kit/providers/provider-blocks.js';

/** The fields of `notify` besides its provider blocks. */
class NotifySettings {
  /** An approval gate written under `notify` by hand: accepted here, so the handler refuses it naming its key. */
  @Allow()
  approve?: unknown;
}

/**
 * The class of the body under `plugin.notify`: one optional block per provider (`notify: {slack: {...}}`), each
 * checked by its provider's class; that exactly one is given is the handler's check. The 0.1.0 body
 * `plugin.slack: {...}` is read as `notify: {slack: {...}}`.
 */
export function notifyConfigClass(blocks: ReadonlyArray<{ key: string; config: ConfigClass }>): ConfigClass {
  return withProviderBlocks(NotifySettings, blocks);
}
