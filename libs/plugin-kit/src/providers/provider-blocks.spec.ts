import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { validatePluginConfig } from '../config/plugin-config.js';
import type { EnvClass } from './provider-definition.js';
import { providerBodyClass, provideProviderBody, PROVIDER_BODY } from './provider-blocks.js';
import { ProviderTable } from './provider-table.js';

class AlphaBlock {
  @IsString()
  job!: string;
}

class BetaBlock {
  @IsInt()
  @Min(1)
  id!: number;
}

class Settings {
  @IsOptional()
  @IsString()
  key?: string;
}

const loads: string[] = [];
/** A provider whose `load()` gives its block class (and records that it was loaded). */
function provider(key: string, block: new () => object) {
  return {
    key,
    variables: (Base: EnvClass) => Base,
    prefixes: [`${key.toUpperCase()}_`],
    enable: `${key.toUpperCase()}_URL`,
    scopeKinds: [key],
    read: () => ({ settings: {}, problems: [] }),
    configured: () => false,
    destinations: () => ({}),
    load: async () => {
      loads.push(key);
      return { block };
    },
  };
}
const table = new ProviderTable([provider('alpha', AlphaBlock), provider('beta', BetaBlock)]);

type Body = Settings & { alpha?: AlphaBlock; beta?: BetaBlock };

describe('providerBodyClass', () => {
  it("checks the body's own fields and each provider's block with the class its load() gives", async () => {
    const Body = await providerBodyClass<Body>(Settings, table);
    const valid = validatePluginConfig(Body, { key: 'k', beta: { id: 3 } });
    expect(valid.ok && valid.config.beta).toBeInstanceOf(BetaBlock);
    // The blocks' problems first, in the table's order, then the body's own fields'.
    expect(validatePluginConfig(Body, { key: 2, beta: { id: 0 }, alpha: { job: 1 } })).toEqual({
      ok: false,
      problems: ['alpha.job: must be a string', 'beta.id: must not be less than 1', 'key: must be a string'],
    });
    expect(validatePluginConfig(Body, { gamma: {} })).toEqual({
      ok: false,
      problems: ['gamma: unknown field'],
    });
  });

  it('loads each module once, as the clients do, and gives the class to Nest under its token', async () => {
    const Body = await providerBodyClass(Settings, table);
    expect(loads).toEqual(['alpha', 'beta']);
    expect(provideProviderBody(Body)).toEqual({ provide: PROVIDER_BODY, useValue: Body });
  });
});
