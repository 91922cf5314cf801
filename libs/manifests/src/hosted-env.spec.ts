import {
  collectionEnvLines,
  providerVariableFindings,
  withCollectionEnv,
  type CollectionHosting,
} from './hosted-env.js';
import { parse } from 'yaml';

const plugin = (env: string[]): string =>
  [
    'spec:',
    '  sidecar:',
    '    container:',
    '      env:',
    ...env.map((l) => `        ${l}`),
    '      resources: {}',
    '',
  ].join('\n');

const alpha = plugin([
  '# Alpha: its token.',
  '- name: ALPHA_TOKEN',
  '  valueFrom:',
  '    secretKeyRef: { name: alpha-executor-plugin, key: token, optional: true }',
  '# Scopes:',
  '# - name: NAMESPACE_SCOPES',
  "#   value: 'alpha/*=ci'",
  '- name: CANCEL_ON_SHUTDOWN',
  "  value: 'false'",
  '# More alphas: ALPHA_<NAME>_TOKEN.',
  '# 0.1.0 names, read for one release: the former Secret alpha.',
  '- name: FORMER_ALPHA_TOKEN',
  '  valueFrom:',
  '    secretKeyRef: { name: alpha, key: token, optional: true }',
]);
const beta = plugin([
  '- name: BETA_URL',
  '  valueFrom:',
  '    configMapKeyRef: { name: beta-settings, key: url, optional: true }',
  '- name: CANCEL_ON_SHUTDOWN',
  "  value: 'true'",
]);

const hosting: CollectionHosting = {
  app: 'collection',
  plugins: [
    { name: 'alpha', key: 'a', keys: ['a', 'aa'], prefix: 'ALPHA_', providers: [] },
    { name: 'beta', key: 'b', keys: ['b'], prefix: 'BETA_', providers: [] },
  ],
  shared: ['NAMESPACE_SCOPES', 'CANCEL_ON_SHUTDOWN'],
  defaults: [{ name: 'MAX_EXECUTIONS', value: '32', meaning: 'Executions at a time' }],
};
const texts = new Map([
  ['alpha', alpha],
  ['beta', beta],
]);

describe("the collection's env, made from its hosted plugins' plugin.yaml", () => {
  const collection = withCollectionEnv(plugin(['- name: OLD', '  value: x']), hosting, texts);
  const env = (parse(collection) as { spec: { sidecar: { container: { env: object[] } } } }).spec.sidecar
    .container.env;

  it("holds PLUGINS, the defaults, each plugin's variables (shared ones prefixed), then every 0.1.0 name", () => {
    expect(env).toEqual([
      { name: 'PLUGINS', value: 'a,b' },
      { name: 'MAX_EXECUTIONS', value: '32' },
      {
        name: 'ALPHA_TOKEN',
        valueFrom: { secretKeyRef: { name: 'alpha-executor-plugin', key: 'token', optional: true } },
      },
      { name: 'ALPHA_CANCEL_ON_SHUTDOWN', value: 'false' },
      {
        name: 'BETA_URL',
        valueFrom: { configMapKeyRef: { name: 'beta-settings', key: 'url', optional: true } },
      },
      { name: 'BETA_CANCEL_ON_SHUTDOWN', value: 'true' },
      {
        name: 'FORMER_ALPHA_TOKEN',
        valueFrom: { secretKeyRef: { name: 'alpha', key: 'token', optional: true } },
      },
    ]);
  });

  it("keeps each plugin's comments, names its Secret and ConfigMap, and introduces the 0.1.0 names once", () => {
    const lines = collectionEnvLines(hosting, texts);
    expect(lines).toContain('        # ── a: alpha (Secret alpha-executor-plugin) ──');
    expect(lines).toContain('        # ── b: beta (ConfigMap beta-settings) ──');
    expect(lines).toContain('        # More alphas: ALPHA_<NAME>_TOKEN.');
    expect(lines).toContain('        # - name: ALPHA_NAMESPACE_SCOPES');
    expect(lines.filter((l) => l.includes('0.1.0 names'))).toEqual([
      expect.stringContaining('a former Secret (alpha) is used'),
    ]);
  });

  it('replaces only the env: the rest of the collection file stays as written', () => {
    expect(collection.startsWith('spec:\n  sidecar:\n    container:\n      env:\n')).toBe(true);
    expect(collection.endsWith('      resources: {}\n')).toBe(true);
    expect(collection).not.toContain('OLD');
  });

  it("writes the keys and hosts annotations from the hosted plugins' keys and names", () => {
    const annotated = [
      'metadata:',
      '  annotations:',
      '    executor-plugins.dev/keys: old',
      '    executor-plugins.dev/hosts: old',
      '    other: kept',
      plugin([]),
    ].join('\n');
    const text = withCollectionEnv(annotated, hosting, texts);
    expect(text).toContain(
      '    executor-plugins.dev/keys: a,aa,b\n    executor-plugins.dev/hosts: alpha,beta\n',
    );
    expect(text).toContain('    other: kept\n');
  });

  it("keeps the admin's PLUGINS (keys no hosted plugin answers dropped), adds a scaffolded one's key", () => {
    const chosen = plugin(['- name: PLUGINS', '  value: aa,gone']);
    const served = (text: string) =>
      (parse(text) as { spec: { sidecar: { container: { env: Array<{ name: string; value?: string }> } } } })
        .spec.sidecar.container.env[0];
    expect(served(withCollectionEnv(chosen, hosting, texts))).toEqual({ name: 'PLUGINS', value: 'aa' });
    expect(served(withCollectionEnv(chosen, hosting, texts, ['b']))).toEqual({
      name: 'PLUGINS',
      value: 'aa,b',
    });
    expect(served(withCollectionEnv(plugin([]), hosting, texts))).toEqual({ name: 'PLUGINS', value: 'a,b' });
  });

  it('refuses a hosted plugin without a plugin.yaml, naming the file', () => {
    expect(() => collectionEnvLines(hosting, new Map([['alpha', alpha]]))).toThrow(
      'manifests/beta/plugin.yaml: no such file (the collection hosts beta)',
    );
  });
});

describe('a plugin.yaml names every variable of its providers', () => {
  it('finds a variable set or named in a comment, and names each missing one with its provider', () => {
    const text = plugin(['# Optional: ALPHA_API_URL.', '- name: ALPHA_TOKEN', '  value: x']);
    expect(
      providerVariableFindings(text, 'alpha/plugin.yaml', [
        { key: 'alpha', variables: ['ALPHA_TOKEN', 'ALPHA_API_URL', 'ALPHA_TIMEOUT', 'ALPHA_TOK'] },
      ]),
    ).toEqual([
      {
        file: 'alpha/plugin.yaml',
        field: 'spec.sidecar.container.env',
        problem: 'ALPHA_TIMEOUT of the provider alpha is neither set nor named in a comment',
      },
      {
        file: 'alpha/plugin.yaml',
        field: 'spec.sidecar.container.env',
        problem: 'ALPHA_TOK of the provider alpha is neither set nor named in a comment',
      },
    ]);
  });
});
