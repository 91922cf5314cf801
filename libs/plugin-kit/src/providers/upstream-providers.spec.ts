import { upstreamKind, upstreamId } from '../config/named-upstreams.js';
import { NamespaceScopes } from '../config/namespace-scopes.js';
import { PluginConfigError } from '../errors/upstream-error.js';
import { Redactor } from '../logging/redactor.js';
import type { EnvClass } from './provider-definition.js';
import { ProviderTable } from './provider-table.js';
import { provideUpstreamProviders, UpstreamProviders, type UpstreamContext } from './upstream-providers.js';

/** A block class whose own check the pick runs. */
class AlphaBlock {
  job = '';
  static problems(block: AlphaBlock): string[] {
    return block.job === '' ? ['alpha.job: must not be empty'] : [];
  }
}

const made: Array<{ key: string; upstream: unknown; context: UpstreamContext<unknown> }> = [];
const module = (key: string) => ({
  block: AlphaBlock,
  create: (upstream: unknown, context: UpstreamContext<unknown>) => {
    made.push({ key, upstream, context });
    return { key, upstream };
  },
});
const loads: string[] = [];
/** A provider of upstreams `<KEY>_URL`, `<KEY>_<NAME>_URL`, whose module records what it makes. */
function provider(key: string) {
  const family = key.toUpperCase();
  return {
    key,
    upstreams: upstreamKind(key, 'server', { prefix: family }, (v) => v('URL')),
    load: async () => {
      loads.push(key);
      return module(key);
    },
    scopeKinds: [key],
    enable: `${family}_URL`,
    prefixes: [`${family}_`],
    variables: (Base: EnvClass) => Base,
    configured: (s: Map<string, string>) => s.size > 0,
    read: () => ({ settings: new Map<string, string>(), problems: [] }),
    destinations: (s: Map<string, string>) => ({ [key]: s.keys() }),
  };
}
const table = new ProviderTable([provider('alpha'), provider('beta')]);

const upstreams: Record<string, Map<string, string>> = {
  alpha: new Map([
    ['default', 'https://a'],
    ['prod', 'https://a-prod'],
  ]),
  beta: new Map([['default', 'https://b']]),
};
const env = {
  UPSTREAM_TIMEOUT: '2500ms',
  scopes: NamespaceScopes.parse('alpha/prod=release', {
    noun: 'server',
    configured: { alpha: ['default', 'prod'], beta: ['default'] },
    normalize: upstreamId,
  }).scopes,
  upstreamsOf: (key: string) => upstreams[key]!,
};
const block = (job: string) => Object.assign(new AlphaBlock(), { job });

describe('UpstreamProviders', () => {
  const redactor = new Redactor();
  const providers = () =>
    new UpstreamProviders<{ key: string; upstream: unknown }>(
      table,
      env,
      new Map([
        ['alpha', module('alpha')],
        ['beta', module('beta')],
      ]),
      redactor,
    );

  beforeEach(() => (made.length = 0));

  it("picks the body's one block and the client of the upstream it names, made once with the context", () => {
    const registry = providers();
    const picked = registry.pick({ alpha: block('deploy'), server: 'Prod' }, 'Prod', 'release');
    expect(picked).toEqual({
      key: 'alpha',
      block: block('deploy'),
      client: { key: 'alpha', upstream: 'https://a-prod' },
    });
    expect(registry.pick({ alpha: block('other') }, 'prod', 'release').client).toBe(picked.client);
    expect(made).toEqual([
      { key: 'alpha', upstream: 'https://a-prod', context: { timeoutMs: 2500, redactor, variables: env } },
    ]);
    expect(registry.pick({ beta: {} }, undefined, 'ci').client).toEqual({
      key: 'beta',
      upstream: 'https://b',
    });
  });

  it.each([
    [{}, undefined, 'body: exactly one provider block is required (alpha, beta); got none'],
    [{ alpha: block('x'), beta: {} }, undefined, /got alpha and beta$/],
    [{ alpha: block('') }, undefined, 'alpha.job: must not be empty'],
    [{ alpha: block('x') }, 'staging', /ALPHA_STAGING_URL/],
  ])('%j, upstream %s: a PluginConfigError before any client is made', (body, requested, message) => {
    expect(() => providers().pick(body, requested, 'release')).toThrow(PluginConfigError);
    expect(() => providers().pick(body, requested, 'release')).toThrow(message);
    expect(made).toEqual([]);
  });

  it('refuses an upstream the namespace may not use, listing only the ones it may', () => {
    const closed = () => providers().pick({ alpha: block('x') }, 'prod', 'ci');
    expect(closed).toThrow(PluginConfigError);
    expect(closed).toThrow('no alpha server "prod" for namespace ci (known: default (no server))');
  });

  it("provides the registry to Nest, every provider's module loaded once, in the table's order", async () => {
    class Env {}
    const nest = await provideUpstreamProviders(table, Env as never);
    await provideUpstreamProviders(table, Env as never);
    expect(loads).toEqual(['alpha', 'beta']);
    expect(nest).toMatchObject({ provide: UpstreamProviders, inject: [Env, Redactor] });
    const registry = nest.useFactory(env, redactor) as UpstreamProviders<unknown>;
    expect(registry.pick({ beta: {} }, undefined, 'ci').client).toEqual({
      key: 'beta',
      upstream: 'https://b',
    });
  });
});
