import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import type { ConfigClass } from '../execution/plugin-handler.js';

/**
 * A body class with one optional nested block per provider (`{slack: {...}}`), each checked by its provider's
 * class, on top of `Base`'s own fields; that exactly one block is given is the table's `pick`.
 */
export function withProviderBlocks(
  Base: ConfigClass,
  blocks: ReadonlyArray<{ key: string; config: ConfigClass }>,
): ConfigClass {
  class WithBlocks extends Base {}
  for (const { key, config } of blocks)
    for (const decorate of [IsOptional(), ValidateNested(), Type(() => config)])
      decorate(WithBlocks.prototype, key);
  return WithBlocks;
}
