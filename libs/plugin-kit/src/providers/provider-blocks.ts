import { Inject, type ValueProvider } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import type { ConfigClass } from '../execution/plugin-handler.js';
import type { AnyProviderDefinition } from './provider-definition.js';
import { loadProviderModules, type ProviderTable } from './provider-table.js';

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

/** What a provider's `load()` gives, where the body's block class comes with it. */
export interface WithBlockClass {
  /** The class of its block in the body (its class-validator rules, its static `problems`). */
  block: ConfigClass;
}

/**
 * The body class of a table's providers: `Base`'s fields and one block per provider, in the table's order, the
 * block's class coming with the provider's `load()` (the modules loaded once, as the clients load them), so the
 * table is the only list of blocks. `Body`: the body's type, its settings and its blocks.
 */
export async function providerBodyClass<Body extends object>(
  Base: ConfigClass,
  table: ProviderTable<AnyProviderDefinition<WithBlockClass>>,
): Promise<ConfigClass<Body>> {
  const modules = await loadProviderModules(table);
  const blocks = table.keys.map((key) => ({ key, config: modules.get(key)!.block }));
  return withProviderBlocks(Base, blocks) as ConfigClass<Body>;
}

/** The Nest token of the body class `provideProviderBody` makes. */
export const PROVIDER_BODY = Symbol.for('plugin-kit.provider-body');

/** The Nest provider of a plugin's body class (`providerBodyClass`), for its handler's `InjectProviderBody`. */
export function provideProviderBody(bodyClass: ConfigClass): ValueProvider<ConfigClass> {
  return { provide: PROVIDER_BODY, useValue: bodyClass };
}

/** A handler's constructor parameter that receives the body class `provideProviderBody` made. */
export function InjectProviderBody(): PropertyDecorator & ParameterDecorator {
  return Inject(PROVIDER_BODY);
}
