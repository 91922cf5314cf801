import { envProperties, IsOptional, IsString } from '../config/env-rules.js';
import { PluginConfigError } from '../errors/upstream-error.js';
import { createMemoryLogger } from '../logging/plugin-logger.js';
import { Redactor } from '../logging/redactor.js';
import { NamespaceScopes } from '../config/namespace-scopes.js';
import { defineProviderSettings, providerFolder, type EnvClass } from './provider-definition.js';
import { providerContext } from './provider-context.js';
import { loadApprovalSlots, loadProviderModules, ProviderTable } from './provider-table.js';

/** A provider of one variable, `<PREFIX>TOKEN`, enabled when it is set; `bad` is refused with a problem. */
function tokenProvider(key: string, prefix: string) {
  const variable = `${prefix}TOKEN`;
  const variables = (Base: EnvClass): EnvClass<Record<string, string | undefined>> => {
    class Variables extends Base {}
    IsOptional()(Variables.prototype, variable);
    IsString()(Variables.prototype, variable);
    return Variables as EnvClass<Record<string, string | undefined>>;
  };
  return defineProviderSettings<Record<string, string | undefined>, { token?: string }>({
    key,
    variables,
    prefixes: [prefix],
    enable: variable,
    scopeKinds: [key],
    read: (env, source) => ({
      settings: { token: env[variable] },
      problems: env[variable] === 'bad' ? [`${variable}: must be a token`] : [],
      formerNames: source[`${variable}_OLD`] ? [`${variable}_OLD (now ${variable})`] : [],
    }),
    configured: (s) => s.token !== undefined,
    destinations: (s) => ({ [key]: s.token ? ['default'] : [] }),
    credentials: (s) => (s.token ? [{ secret: s.token, user: key }] : []),
  });
}

const table = new ProviderTable([tokenProvider('alpha', 'ALPHA_'), tokenProvider('betaGamma', 'BETA_')]);

describe('ProviderTable', () => {
  it("stacks every provider's variables into one env class, and lists their families", () => {
    expect([...envProperties(table.variables())].sort()).toEqual(['ALPHA_TOKEN', 'BETA_TOKEN']);
    expect(table.prefixes).toEqual(['ALPHA_', 'BETA_']);
    expect(table.keys).toEqual(['alpha', 'betaGamma']);
  });

  it("reads each provider's settings, problems, former names and destinations", () => {
    const read = table.read({ ALPHA_TOKEN: 'a', BETA_TOKEN: 'bad' }, { BETA_TOKEN_OLD: 'x' });
    expect([...read.settings]).toEqual([
      ['alpha', { token: 'a' }],
      ['betaGamma', { token: 'bad' }],
    ]);
    expect(read.problems).toEqual(['BETA_TOKEN: must be a token']);
    expect(read.formerNames).toEqual(['BETA_TOKEN_OLD (now BETA_TOKEN)']);
    expect(Object.keys(read.destinations)).toEqual(['alpha', 'betaGamma']);
    expect(table.configured(read.settings)).toEqual(['alpha', 'betaGamma']);
    expect(table.configured(table.read({ BETA_TOKEN: 'b' }, {}).settings)).toEqual(['betaGamma']);
  });

  it("gathers the credentials each provider's settings hold", () => {
    const { settings } = table.read({ ALPHA_TOKEN: 'a', BETA_TOKEN: 'b' }, {});
    expect(table.credentials(settings)).toEqual([
      { secret: 'a', user: 'alpha' },
      { secret: 'b', user: 'betaGamma' },
    ]);
    expect(table.credentials(table.read({}, {}).settings)).toEqual([]);
  });

  it('names what enables each provider when none is', () => {
    expect(table.configured(table.read({}, {}).settings)).toEqual([]);
    expect(table.noneConfigured()).toBe(
      'no provider is configured: set one of: ALPHA_TOKEN (alpha); BETA_TOKEN (betaGamma)',
    );
  });

  it('picks the one provider block of a body, else names the ones allowed and found', () => {
    expect(table.pick({ betaGamma: {}, other: 1 })).toBe('betaGamma');
    expect(() => table.pick({})).toThrow(
      new PluginConfigError('body: exactly one provider block is required (alpha, betaGamma); got none'),
    );
    expect(() => table.pick({ alpha: {}, betaGamma: {} })).toThrow(/got alpha and betaGamma$/);
  });

  it('picks the block with its key, else the problems its own check finds', () => {
    class Checked {
      constructor(readonly limit: number) {}
      static problems(block: Checked, body: object): string[] {
        return (body as { n: number }).n > block.limit
          ? [`n: at most ${block.limit} with alpha`, 'and another']
          : [];
      }
    }
    expect(table.pickBlock({ alpha: new Checked(5), n: 3 })).toEqual({ key: 'alpha', block: new Checked(5) });
    expect(table.pickBlock({ betaGamma: { plain: true } })).toEqual({
      key: 'betaGamma',
      block: { plain: true },
    });
    expect(() => table.pickBlock({ alpha: new Checked(5), n: 7 })).toThrow(
      new PluginConfigError('n: at most 5 with alpha; and another'),
    );
    expect(() => table.pickBlock({})).toThrow(/exactly one provider block is required/);
  });

  it("a provider's folder is its key in kebab case", () => {
    expect(table.keys.map(providerFolder)).toEqual(['alpha', 'beta-gamma']);
  });
});

describe('providerContext', () => {
  it("gives a provider its own settings and the plugin's scopes, timeout, redactor and logger", () => {
    const redactor = new Redactor();
    const { logger } = createMemoryLogger(redactor);
    const scopes = NamespaceScopes.unrestricted;
    expect(
      providerContext('alpha', { settings: { token: 'a' }, scopes, timeoutMs: 8000 }, redactor, logger),
    ).toEqual({ key: 'alpha', settings: { token: 'a' }, scopes, timeoutMs: 8000, redactor, logger });
  });
});

describe('loadProviderModules', () => {
  it("loads each provider's module once, one after the other, by key", async () => {
    const order: string[] = [];
    const loading = (key: string) => async () => {
      order.push(`start ${key}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`end ${key}`);
      return { module: key };
    };
    const modules = new ProviderTable([
      { ...tokenProvider('alpha', 'ALPHA_'), load: loading('alpha') },
      { ...tokenProvider('betaGamma', 'BETA_'), load: loading('betaGamma') },
    ]);
    const first = await loadProviderModules(modules);
    expect([...first]).toEqual([
      ['alpha', { module: 'alpha' }],
      ['betaGamma', { module: 'betaGamma' }],
    ]);
    expect(order).toEqual(['start alpha', 'end alpha', 'start betaGamma', 'end betaGamma']);
    expect(await loadProviderModules(modules)).toBe(first);
    expect(order).toHaveLength(4);
  });
});

describe('loadApprovalSlots', () => {
  it("loads the approval slot of each provider that has one, once, by key in the table's order", async () => {
    let loads = 0;
    const slot = (key: string) => ({
      load: async () => {
        loads += 1;
        return { slot: key };
      },
    });
    const table = new ProviderTable([
      { ...tokenProvider('alpha', 'ALPHA_'), approval: slot('alpha') },
      tokenProvider('beta', 'BETA_'),
      { ...tokenProvider('gamma', 'GAMMA_'), approval: slot('gamma') },
    ]);
    const first = await loadApprovalSlots(table);
    expect([...first]).toEqual([
      ['alpha', { slot: 'alpha' }],
      ['gamma', { slot: 'gamma' }],
    ]);
    expect(await loadApprovalSlots(table)).toBe(first);
    expect(loads).toBe(2);
  });
});
