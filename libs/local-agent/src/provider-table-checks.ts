// What every provider of a plugin's table has, checked the same way in each plugin (its providers' spec calls
// describeProviderTable): a failure names the provider and what it lacks.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { providerFolder, secretFieldsOf, type ProviderTable } from '@app/plugin-kit';
import { envProperties } from '@app/plugin-kit/config/env-rules.js';
import { ProviderStandIn } from './stand-in/provider-stand-in.js';

export interface ProviderTableChecks {
  /** The plugin's app folder (`apps/<app>`), its manifests folder and its docs page (`docs/<app>.md`). */
  app: string;
  /** The plugin's template key (`data-job`) and its aliases (`slack` → `slack`: the body of `notify.slack`). */
  key: string;
  aliases?: Readonly<Record<string, string>>;
  envPrefixes: readonly string[];
  table: ProviderTable;
  /** Stand-in classes that serve no HTTP (`SmtpStandIn`): every other one extends ProviderStandIn. */
  notHttp?: readonly string[];
}

const repo = join(import.meta.dirname, '../../..');

/** The provider blocks each example of `app` uses, by file: `<key>: {<provider>: …}`, or an alias key (`slack: …`). */
export function exampleBlocksByFile({
  app,
  key,
  aliases = {},
}: ProviderTableChecks): Map<string, Set<string>> {
  const dir = join(repo, 'manifests', app, 'examples');
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => [
        f,
        new Set(
          parseAllDocuments(readFileSync(join(dir, f), 'utf8')).flatMap((d) => {
            const templates = (
              d.toJSON() as { spec?: { templates?: Array<{ plugin?: Record<string, unknown> }> } }
            ).spec?.templates;
            return (templates ?? []).flatMap(({ plugin }) => [
              ...Object.keys((plugin?.[key] ?? {}) as object),
              ...Object.keys(plugin ?? {}).flatMap((k) => (aliases[k] ? [aliases[k]] : [])),
            ]);
          }),
        ),
      ]),
  );
}

/** The provider blocks the examples of `app` use. */
export function exampleBlocks(checks: ProviderTableChecks): Set<string> {
  return new Set([...exampleBlocksByFile(checks).values()].flatMap((blocks) => [...blocks]));
}

/** The rows of `docs/<app>.md`'s tables; `MATTERMOST[_<NAME>]_URL` documents MATTERMOST_URL. */
function docRows(app: string): string[] {
  return readFileSync(join(repo, 'docs', `${app}.md`), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((row) => row.replaceAll('[_<NAME>]', ''));
}

/** The texts of `apps/<app>/demo/*.ts`: the demo's upstreams and the env that points the plugin at them. */
function demoTexts(app: string): string[] {
  const dir = join(repo, 'apps', app, 'demo');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

const CREDENTIAL_FORMS = 'test/reliability/credential-forms.e2e-spec.ts';

/**
 * Whether the credential-forms suite has a row for `secret` of a provider with the families `prefixes`: the
 * variable written whole, or built from its family (`'GLUE'` with `${prefix}_SESSION_TOKEN`).
 */
function hasCredentialRow(text: string, secret: string, prefixes: readonly string[]): boolean {
  if (new RegExp(`\\b${secret}\\b`).test(text)) return true;
  return prefixes.some(
    (prefix) =>
      secret.startsWith(prefix) &&
      text.includes(`'${prefix.replace(/_$/, '')}'`) &&
      text.includes(`\${prefix}_${secret.slice(prefix.length)}`),
  );
}

/** One `describe` per provider of the table: what every provider of every plugin has. */
export function describeProviderTable(checks: ProviderTableChecks): void {
  const { app, table, envPrefixes } = checks;
  const appDir = join(repo, 'apps', app);
  const examples = exampleBlocks(checks);
  const rows = docRows(app);
  const demo = demoTexts(app);
  const credentialForms = readFileSync(join(repo, CREDENTIAL_FORMS), 'utf8');

  describe.each(table.providers.map((p) => [p.key, p] as const))('provider %s', (key, provider) => {
    const folder = providerFolder(key);
    const variables = envProperties(provider.variables(class {}));

    it('has its folder under providers/: its definition, settings and block', () => {
      for (const file of ['index.ts', `${folder}-settings.ts`, `${folder}-block.dto.ts`])
        expect({ file, exists: existsSync(join(appDir, 'src/providers', folder, file)) }).toEqual({
          file,
          exists: true,
        });
    });

    it('has its variables, each in one of its families, which are the plugin’s', () => {
      expect(variables.length).toBeGreaterThan(0);
      for (const variable of variables)
        expect({ variable, inFamily: provider.prefixes.some((p) => variable.startsWith(p)) }).toEqual({
          variable,
          inFamily: true,
        });
      expect(envPrefixes).toEqual(expect.arrayContaining([...provider.prefixes]));
    });

    it('reads settings: none configured, no problem, from an empty environment', () => {
      const env = new (provider.variables(class {}))();
      const read = provider.read(env, {});
      expect(read.problems).toEqual([]);
      expect(provider.configured(read.settings)).toBe(false);
      expect(Object.keys(provider.destinations(read.settings)).sort()).toEqual(
        [...provider.scopeKinds].sort(),
      );
    });

    it('has a stand-in under stand-ins/', () => {
      const dir = join(appDir, 'stand-ins', folder);
      const standIns = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.stand-in.ts')) : [];
      expect({ folder: `stand-ins/${folder}`, standIns: standIns.length > 0 }).toEqual({
        folder: `stand-ins/${folder}`,
        standIns: true,
      });
    });

    it('has HTTP stand-ins on the one base, ProviderStandIn (hostile modes, scripted 429s and 5xx)', async () => {
      const dir = join(appDir, 'stand-ins', folder);
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.stand-in.ts')) : [];
      const classes: Array<[string, unknown]> = [];
      for (const f of files)
        for (const [name, value] of Object.entries((await import(join(dir, f))) as Record<string, unknown>))
          if (/StandIn$/.test(name) && typeof value === 'function' && !checks.notHttp?.includes(name))
            classes.push([`stand-ins/${folder}/${f}: ${name}`, value]);
      expect(
        classes
          .filter(([, c]) => !((c as { prototype: unknown }).prototype instanceof ProviderStandIn))
          .map(([n]) => n),
      ).toEqual([]);
    });

    it(`has an example under manifests/${app}/examples`, () => {
      expect(examples).toContain(key);
    });

    it(`has a demo upstream: apps/${app}/demo/ sets one of its variables`, () => {
      const set = variables.filter((v) => demo.some((text) => new RegExp(`\\b${v}:`).test(text)));
      expect({ demo: `apps/${app}/demo/`, setsOneOf: variables, set: set.length > 0 }).toEqual({
        demo: `apps/${app}/demo/`,
        setsOneOf: variables,
        set: true,
      });
    });

    it(`has a row in ${CREDENTIAL_FORMS} for each of its secrets`, () => {
      const secrets = secretFieldsOf(provider.variables(class {}));
      const missing = secrets.filter((s) => !hasCredentialRow(credentialForms, s, provider.prefixes));
      expect({ file: CREDENTIAL_FORMS, missing }).toEqual({ file: CREDENTIAL_FORMS, missing: [] });
    });

    it(`has its variables in the rows of docs/${app}.md`, () => {
      for (const variable of variables)
        expect({ variable, row: rows.some((row) => row.includes(variable)) }).toEqual({
          variable,
          row: true,
        });
    });
  });
}
