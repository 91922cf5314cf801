import { Allow } from 'class-validator';
import type { ConfigClass } from '@app/plugin-kit';
import { providerBodyClass } from '@app/plugin-kit/providers/provider-blocks.js';
import { PROVIDERS } from './providers/index.js';

/** The fields of `notify` besides its provider blocks. */
class NotifySettings {
  /** An approval gate written under `notify` by hand: accepted here, so the handler refuses it naming its key. */
  @Allow()
  approve?: unknown;
}

/**
 * The class of the body under `plugin.notify`: one optional block per provider (`notify: {slack: {...}}`), each
 * checked by its provider's class, the block's class coming with the provider's module; that exactly one is
 * given is the handler's check. The 0.1.0 body `plugin.slack: {...}` is read as `notify: {slack: {...}}`.
 */
export function notifyConfigClass(): Promise<ConfigClass<Record<string, object>>> {
  return providerBodyClass<Record<string, object>>(NotifySettings, PROVIDERS);
}
