import { upstreamKind } from '../config/named-upstreams.js';
import { NamespaceScopes } from '../config/namespace-scopes.js';
import { PluginConfigError } from '../errors/upstream-error.js';
import { defineProviderSettings, type EnvClass } from './provider-definition.js';
import { ProviderClients } from './provider-clients.js';
import { ProviderTable } from './provider-table.js';

const family = { prefix: 'ALPHA', settings: ['URL', 'TOKEN'] };

describe('upstreamKind', () => {
  it("names the variables of the default upstream and of a named one from the provider's family", () => {
    const kind = upstreamKind('alpha', 'server', family, (v) => `${v('URL')} and ${v('TOKEN')}`);
    expect(kind).toMatchObject({
      provider: 'alpha',
      scope: 'alpha',
      field: 'server',
      enable: 'ALPHA_URL and ALPHA_TOKEN',
    });
    expect(kind.variablesFor('PROD_EU')).toBe('ALPHA_PROD_EU_URL and ALPHA_PROD_EU_TOKEN');
  });
});

describe('ProviderClients', () => {
  const upstreamsOf = (key: string) =>
    upstreamKind(key, 'connection', { prefix: key.toUpperCase() }, (v) => v('URL'));
  const provider = (key: string) => ({
    ...defineProviderSettings({
      key,
      variables: (Base: EnvClass) => Base,
      prefixes: [`${key.toUpperCase()}_`],
      enable: `${key.toUpperCase()}_URL`,
      scopeKinds: [key],
      read: () => ({ settings: new Map<string, string>(), problems: [] }),
      configured: (s) => s.size > 0,
      destinations: (s) => ({ [key]: s.keys() }),
    }),
    upstreams: upstreamsOf(key),
  });
  const table = new ProviderTable([provider('alpha'), provider('beta')]);
  const upstreams: Record<string, Map<string, string>> = {
    alpha: new Map([
      ['default', 'https://a'],
      ['prod', 'https://a-prod'],
    ]),
    beta: new Map(),
  };
  const access = { scopes: NamespaceScopes.unrestricted, namespace: 'argo' };

  it("creates one client per provider and upstream, on first use, from the provider's upstreams", () => {
    const created: string[] = [];
    const clients = new ProviderClients(
      table,
      (key) => upstreams[key]!,
      (key, url) => {
        created.push(`${key} ${String(url)}`);
        return { key, url };
      },
    );
    expect(created).toEqual([]);
    expect(clients.get('alpha', undefined, access)).toEqual({ key: 'alpha', url: 'https://a' });
    expect(clients.get('alpha', 'Prod', access)).toEqual({ key: 'alpha', url: 'https://a-prod' });
    expect(clients.get('alpha', 'prod', access)).toBe(clients.get('alpha', 'Prod', access));
    expect(created).toEqual(['alpha https://a', 'alpha https://a-prod']);
  });

  it('refuses an upstream that is not configured, naming what the admin sets', () => {
    const clients = new ProviderClients(
      table,
      (key) => upstreams[key]!,
      (key) => key,
    );
    expect(() => clients.get('beta', undefined, access)).toThrow(PluginConfigError);
    expect(() => clients.get('beta', undefined, access)).toThrow(/BETA_URL/);
    expect(() => clients.get('alpha', 'staging', access)).toThrow(/ALPHA_STAGING_URL/);
  });
});
