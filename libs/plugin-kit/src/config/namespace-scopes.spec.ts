import { NamespaceScopes, type ScopeDefinition } from './namespace-scopes.js';

const definition: ScopeDefinition = {
  noun: 'server',
  configured: { jenkins: ['default', 'prod', 'prod_eu'], github: ['default'] },
  normalize: (n) => n.toLowerCase().replace(/-/g, '_'),
};

describe('NamespaceScopes', () => {
  it('unset or empty: every name is open to every namespace', () => {
    for (const text of [undefined, '', ' ; \n ']) {
      const { scopes, problems } = NamespaceScopes.parse(text, definition);
      expect(problems).toEqual([]);
      expect(scopes.allows('jenkins', 'prod', 'anything')).toBe(true);
    }
  });

  it('names, prefix patterns and *; the most specific entry decides; names without an entry stay open', () => {
    const { scopes, problems } = NamespaceScopes.parse(
      'jenkins/PROD-EU=release, team-*\njenkins/prod=release; github/*=ci',
      definition,
    );
    expect(problems).toEqual([]);
    expect(scopes.allows('jenkins', 'prod_eu', 'release')).toBe(true);
    expect(scopes.allows('jenkins', 'prod_eu', 'team-a')).toBe(true);
    expect(scopes.allows('jenkins', 'prod_eu', 'team')).toBe(false);
    expect(scopes.allows('jenkins', 'prod', 'team-a')).toBe(false);
    expect(scopes.allows('jenkins', 'default', 'team-a')).toBe(true);
    expect(scopes.allows('github', 'default', 'ci')).toBe(true);
    expect(scopes.allows('github', 'default', 'release')).toBe(false);
    expect(scopes.allowed('jenkins', ['default', 'prod', 'prod_eu'], 'team-a')).toEqual([
      'default',
      'prod_eu',
    ]);
  });

  it('*/* covers what no other entry does, so an admin can close every name by default', () => {
    const { scopes } = NamespaceScopes.parse('*/*=argo; jenkins/prod=release,argo', definition);
    expect(scopes.allows('jenkins', 'default', 'team-a')).toBe(false);
    expect(scopes.allows('github', 'default', 'argo')).toBe(true);
    expect(scopes.allows('jenkins', 'prod', 'release')).toBe(true);
    expect(scopes.allows('jenkins', 'prod', '')).toBe(false);
    expect(NamespaceScopes.parse('*/*=*', definition).scopes.allows('jenkins', 'prod', 'x')).toBe(true);
  });

  it('reports every bad entry, naming the variable and quoting the entry', () => {
    const { problems } = NamespaceScopes.parse(
      'jenkins prod=a; gitea/x=a; jenkins/prd=a; jenkins/prod=Team_A,b; jenkins/prod=; */prod=a; jenkins/prod_eu=a; jenkins/prod-eu=b',
      definition,
    );
    expect(problems).toEqual([
      'NAMESPACE_SCOPES: "jenkins prod=a": expected <kind>/<name>=<namespace>[,<namespace>...] (kinds: jenkins, github)',
      'NAMESPACE_SCOPES: "gitea/x=a": unknown kind gitea (kinds: jenkins, github)',
      'NAMESPACE_SCOPES: "jenkins/prd=a": no jenkins server named prd is configured (configured: default, prod, prod_eu)',
      'NAMESPACE_SCOPES: "jenkins/prod=Team_A,b": "Team_A": not a namespace name, a prefix pattern (team-*) or *',
      'NAMESPACE_SCOPES: "jenkins/prod=": lists no namespace (leave the name out to open it to every namespace)',
      'NAMESPACE_SCOPES: "*/prod=a": */<name> is not a scope; use <kind>/prod or */*',
      'NAMESPACE_SCOPES: "jenkins/prod-eu=b": jenkins/prod_eu is listed twice',
    ]);
  });
});
