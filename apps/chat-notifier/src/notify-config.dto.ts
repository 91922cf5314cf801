import type { ConfigClass } from '@app/plugin-kit';
import { withProviderBlocks } from '@app/plugin-kit/providers/provider-blocks.js';

/**
 * The class of the body under `plugin.notify`: one optional block per provider (`notify: {slack: {...}}`), each
 * checked by its provider's class; that exactly one is given is the handler's check. The 0.1.0 body
 * `plugin.slack: {...}` is read as `notify: {slack: {...}}`; `plugin.approve: {...}` is the gate's body, read
 * as `notify: {approve: {...}}` and checked by `approve`'s class.
 */
export function notifyConfigClass(
  blocks: ReadonlyArray<{ key: string; config: ConfigClass }>,
  approve: ConfigClass,
): ConfigClass {
  return withProviderBlocks(class NotifyConfig {}, [...blocks, { key: 'approve', config: approve }]);
}
