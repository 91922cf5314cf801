import { PluginConfigError } from '../errors/upstream-error.js';
import { NamespaceScopes } from './namespace-scopes.js';
import {
  DEFAULT_UPSTREAM,
  pickUpstream,
  readUpstreams,
  upstreamId,
  upstreamVariable,
  UpstreamClients,
  type UpstreamKind,
} from './named-upstreams.js';

const jenkins = { prefix: 'JENKINS', settings: ['URL', 'USER', 'API_TOKEN'] };
const slack = { prefix: 'SLACK', settings: ['BOT_TOKEN'], formerSpelling: ['BOT_TOKEN'] };
const values = (read: ReturnType<typeof readUpstreams>) =>
  Object.fromEntries([...read.upstreams].map(([name, u]) => [name, u.values]));

describe('named upstreams: <PROVIDER>_<NAME>_<SETTING>', () => {
  it('reads the default upstream and named ones, trimmed; the longest setting wins', () => {
    const read = readUpstreams(
      {
        JENKINS_URL: 'https://ci',
        JENKINS_API_TOKEN: 't0\n',
        JENKINS_PROD_EU_URL: 'https://eu',
        JENKINS_PROD_EU_API_TOKEN: 't1',
        JENKINS_QA_USER: '',
        GITHUB_TOKEN: 'not ours',
      },
      jenkins,
    );
    expect(values(read)).toEqual({
      default: { URL: 'https://ci', API_TOKEN: 't0' },
      prod_eu: { URL: 'https://eu', API_TOKEN: 't1' },
    });
    expect([...read.upstreams.keys()]).toEqual(['default', 'prod_eu']);
    expect(read.upstreams.get('prod_eu')!.variable('USER')).toBe('JENKINS_PROD_EU_USER');
    expect(read).toMatchObject({ problems: [], formerNames: [] });
  });

  it('names a bad name or the name default, never the value; skips Kubernetes service links', () => {
    const read = readUpstreams(
      {
        'JENKINS_prod-eu_URL': 'https://secret-host',
        JENKINS_A__B_URL: 'x',
        JENKINS_DEFAULT_URL: 'x',
        DATABRICKS_SERVICE_HOST: '10.0.0.1',
      },
      jenkins,
    );
    expect(read.problems).toEqual([
      'JENKINS_prod-eu_URL: the name in it must be upper-case letters and digits, words joined by single underscores (JENKINS_OPS_URL)',
      'JENKINS_A__B_URL: the name in it must be upper-case letters and digits, words joined by single underscores (JENKINS_OPS_URL)',
      'JENKINS_DEFAULT_URL: "default" is the upstream of JENKINS_URL; pick another name',
    ]);
    expect(
      readUpstreams(
        { DATABRICKS_PROXY_SERVICE_HOST: '10.0.0.2' },
        { prefix: 'DATABRICKS', settings: ['HOST'] },
      ).upstreams.size,
    ).toBe(0);
  });

  it("reads 0.1.0's <PROVIDER>_<SETTING>_<NAME> for one release, naming each such variable; the current spelling wins", () => {
    const read = readUpstreams(
      {
        SLACK_BOT_TOKEN_OPS: 'xoxb-old',
        SLACK_BOT_TOKEN_EU: 'xoxb-eu',
        SLACK_EU_BOT_TOKEN: 'xoxb-new',
        SLACK_API_URL: 'u',
      },
      slack,
    );
    expect(values(read)).toEqual({ eu: { BOT_TOKEN: 'xoxb-new' }, ops: { BOT_TOKEN: 'xoxb-old' } });
    expect(read.formerNames).toEqual(['SLACK_BOT_TOKEN_OPS (now SLACK_OPS_BOT_TOKEN)']);
    // Problems about an upstream name its variables the way the admin wrote them.
    expect(read.upstreams.get('ops')!.variable('BOT_TOKEN')).toBe('SLACK_BOT_TOKEN_OPS');
    expect(read.upstreams.get('eu')!.variable('BOT_TOKEN')).toBe('SLACK_EU_BOT_TOKEN');
    expect(readUpstreams({ 'SLACK_BOT_TOKEN_bad-name': 'x' }, slack).problems).toEqual([
      'SLACK_BOT_TOKEN_bad-name: the name in it must be upper-case letters and digits, words joined by single underscores (SLACK_OPS_BOT_TOKEN)',
    ]);
  });

  it('one spelling of a name in bodies, scopes and variables', () => {
    expect([upstreamId(undefined), upstreamId(''), upstreamId('Prod-EU')]).toEqual([
      DEFAULT_UPSTREAM,
      'default',
      'prod_eu',
    ]);
    expect(upstreamVariable(jenkins, 'prod_eu', 'URL')).toBe('JENKINS_PROD_EU_URL');
    expect(upstreamVariable(jenkins, 'default', 'URL')).toBe('JENKINS_URL');
  });
});

describe('picking the upstream a body names', () => {
  const kind: UpstreamKind = {
    provider: 'jenkins',
    scope: 'jenkins',
    field: 'server',
    enable: 'JENKINS_URL, JENKINS_USER and JENKINS_API_TOKEN',
    variablesFor: (name) => `JENKINS_${name}_URL, JENKINS_${name}_USER and JENKINS_${name}_API_TOKEN`,
  };
  const configured = new Map([
    ['default', 'D'],
    ['prod_eu', 'P'],
  ]);
  const open = { scopes: NamespaceScopes.unrestricted, namespace: 'argo' };
  const message = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(PluginConfigError);
      return (err as Error).message;
    }
    throw new Error('expected a PluginConfigError');
  };

  it('by name in any spelling, or the default one', () => {
    expect(pickUpstream(kind, configured, 'PROD-EU', open)).toBe('P');
    expect(pickUpstream(kind, configured, undefined, open)).toBe('D');
  });

  it('says what the admin would set, listing only the names open to the namespace', () => {
    const scoped = NamespaceScopes.parse('jenkins/prod_eu=release', {
      noun: 'server',
      configured: { jenkins: configured.keys() },
    }).scopes;
    expect(message(() => pickUpstream(kind, configured, 'qa', { scopes: scoped, namespace: 'team-a' }))).toBe(
      'server: no jenkins server "qa" for namespace team-a (known: default (no server)); the admin adds one with JENKINS_QA_URL, JENKINS_QA_USER and JENKINS_QA_API_TOKEN',
    );
    // closed reads like missing
    expect(
      message(() => pickUpstream(kind, configured, 'prod-eu', { scopes: scoped, namespace: 'team-a' })),
    ).toMatch(/^server: no jenkins server "prod-eu" for namespace team-a \(known: default \(no server\)\)/);
    expect(message(() => pickUpstream(kind, new Map([['prod_eu', 'P']]), undefined, open))).toBe(
      'server: no default jenkins server for namespace argo (the admin sets JENKINS_URL, JENKINS_USER and JENKINS_API_TOKEN); choose one of: prod_eu',
    );
    expect(message(() => pickUpstream(kind, new Map(), 'x', open))).toBe(
      'no jenkins server is configured for this sidecar (the admin sets JENKINS_URL, JENKINS_USER and JENKINS_API_TOKEN)',
    );
  });
});

describe('one client per upstream', () => {
  it('is made on first use, kept, and still checked against the namespace on every call', () => {
    const made: string[] = [];
    const configured = new Map([
      ['default', 'https://d'],
      ['prod', 'https://p'],
    ]);
    const scopes = NamespaceScopes.parse('jenkins/prod=release', {
      noun: 'server',
      configured: { jenkins: configured.keys() },
    }).scopes;
    const kind: UpstreamKind = {
      provider: 'jenkins',
      scope: 'jenkins',
      field: 'server',
      enable: 'JENKINS_URL',
      variablesFor: (n) => `JENKINS_${n}_URL`,
    };
    const clients = new UpstreamClients(kind, configured, (url, name) => {
      made.push(name);
      return { url };
    });
    const release = { scopes, namespace: 'release' };
    expect(clients.get('PROD', release)).toBe(clients.get('prod', release));
    expect(clients.get(undefined, release)).toEqual({ url: 'https://d' });
    expect(made).toEqual(['prod', 'default']);
    expect(() => clients.get('prod', { scopes, namespace: 'team-a' })).toThrow(PluginConfigError);
  });
});
