import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import type { ConfigClass } from '@app/plugin-kit';

/**
 * The class of the body under `plugin.notify`: one optional block per provider (`notify: {slack: {...}}`), each
 * checked by its provider's class; that exactly one is given is the handler's check. The 0.1.0 body
 * `plugin.slack: {...}` is read as `notify: {slack: {...}}`.
 */
export function notifyConfigClass(blocks: ReadonlyArray<{ key: string; config: ConfigClass }>): ConfigClass {
  class NotifyConfig {}
  for (const { key, config } of blocks)
    for (const decorate of [IsOptional(), ValidateNested(), Type(() => config)])
      decorate(NotifyConfig.prototype, key);
  return NotifyConfig;
}
