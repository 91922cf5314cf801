/** The sidecar variable of every plugin that restricts its named servers, connections or workspaces. */
export const NAMESPACE_SCOPES = 'NAMESPACE_SCOPES';

/** A namespace name (DNS-1123 label), or a prefix of one followed by `*`, or `*` alone. */
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const PREFIX = /^[a-z0-9][-a-z0-9]{0,61}\*$/;
const WILDCARD = '*';

export interface ScopeDefinition {
  /** What the plugin calls one of them: `server`, `connection`, `workspace`. */
  noun: string;
  /** The configured names per kind (provider, or a single kind), as `normalize` writes them; `default` included. */
  configured: Record<string, Iterable<string>>;
  /** How the plugin compares names (`prod-eu` and `PROD_EU` are one server): applied to every listed name. */
  normalize?: (name: string) => string;
}

/**
 * Which namespaces' workflows may use each named server, connection or workspace, from one variable with the
 * same syntax in every plugin, e.g. `jenkins/prod=release,ci; github/default=ci-*`: entries
 * `<kind>/<name>=<namespaces>` separated by `;` or line breaks, namespaces separated by `,`, each a name, a
 * prefix pattern `team-*` or `*` (all). `<name>` may be `*`: every name of that kind without an entry of its
 * own; kind and name both `*`: everything else. The most specific entry decides; a name no entry covers is
 * open to every namespace, as before the variable existed.
 */
export class NamespaceScopes {
  private constructor(private readonly rules: ReadonlyMap<string, readonly string[]>) {}

  static readonly unrestricted = new NamespaceScopes(new Map());

  /** Parses the variable; every problem starts with the variable's name and quotes the entry. */
  static parse(
    text: string | undefined,
    definition: ScopeDefinition,
  ): { scopes: NamespaceScopes; problems: string[] } {
    const problems: string[] = [];
    const rules = new Map<string, string[]>();
    const normalize = definition.normalize ?? ((n: string) => n);
    const kinds = Object.keys(definition.configured);
    for (const entry of (text ?? '').split(/[;\n]/).map((e) => e.trim())) {
      if (entry === '') continue;
      const problem = (what: string) => problems.push(`${NAMESPACE_SCOPES}: "${entry}": ${what}`);
      const m = /^([^/=\s]+)\/([^=\s]+)\s*=\s*(.*)$/.exec(entry);
      if (!m) {
        problem(`expected <kind>/<name>=<namespace>[,<namespace>...] (kinds: ${kinds.join(', ')})`);
        continue;
      }
      const kind = m[1]!.toLowerCase();
      const name = m[2] === WILDCARD ? WILDCARD : normalize(m[2]!);
      const kindKnown = kind === WILDCARD || kinds.some((k) => k.toLowerCase() === kind);
      if (!kindKnown) {
        problem(`unknown kind ${m[1]} (kinds: ${kinds.join(', ')})`);
        continue;
      }
      if (kind === WILDCARD && name !== WILDCARD) {
        problem(`*/<name> is not a scope; use <kind>/${m[2]} or */*`);
        continue;
      }
      if (name !== WILDCARD) {
        const names = [...definition.configured[kinds.find((k) => k.toLowerCase() === kind)!]!];
        if (!names.includes(name)) {
          problem(
            `no ${kind} ${definition.noun} named ${m[2]} is configured (configured: ${names.join(', ') || 'none'})`,
          );
          continue;
        }
      }
      const namespaces = m[3]!.split(',').map((n) => n.trim());
      const bad = namespaces.filter((n) => n !== WILDCARD && !NAMESPACE.test(n) && !PREFIX.test(n));
      if (namespaces.length === 0 || namespaces.every((n) => n === '')) {
        problem('lists no namespace (leave the name out to open it to every namespace)');
        continue;
      }
      if (bad.length > 0) {
        problem(
          `${bad.map((b) => JSON.stringify(b)).join(', ')}: not a namespace name, a prefix pattern (team-*) or *`,
        );
        continue;
      }
      const key = `${kind}/${name}`;
      if (rules.has(key)) problem(`${key} is listed twice`);
      else rules.set(key, namespaces);
    }
    return { scopes: new NamespaceScopes(rules), problems };
  }

  /** Whether a workflow of `namespace` may use `name` of `kind` (names as the plugin normalises them). */
  allows(kind: string, name: string, namespace: string): boolean {
    const k = kind.toLowerCase();
    const rule =
      this.rules.get(`${k}/${name}`) ??
      this.rules.get(`${k}/${WILDCARD}`) ??
      this.rules.get(`${WILDCARD}/${WILDCARD}`);
    if (!rule) return true;
    return rule.some(
      (p) => p === WILDCARD || p === namespace || (p.endsWith('*') && namespace.startsWith(p.slice(0, -1))),
    );
  }

  /** Of `names`, those a workflow of `namespace` may use, in their order: what its error messages may list. */
  allowed(kind: string, names: Iterable<string>, namespace: string): string[] {
    return [...names].filter((n) => this.allows(kind, n, namespace));
  }

  /** Whether any entry was given (for the start-up log). */
  get size(): number {
    return this.rules.size;
  }
}
