// The providers' modules are imported up front (see test/support.ts: Jest's ESM loader and concurrent imports).
import { preloadProviderModules } from '../../test/support.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { providerFolder } from '@app/plugin-kit';
import { envProperties } from '@app/plugin-kit/config/env-rules.js';
import { chatNotifierPlugin } from '../chat-notifier.plugin.js';
import { PROVIDERS } from './index.js';
import { ProviderStandIn } from '@app/testing';

const app = join(import.meta.dirname, '../..');
const repo = join(app, '../..');
const modules = await preloadProviderModules();
const docs = readFileSync(join(repo, 'docs/chat-notifier.md'), 'utf8');
// `MATTERMOST[_<NAME>]_URL` documents MATTERMOST_URL and the named servers' variables.
const docRows = docs
  .split('\n')
  .filter((line) => line.startsWith('|'))
  .map((row) => row.replaceAll('[_<NAME>]', ''));

/** The provider blocks the examples use: `notify: {<key>: …}`, or a 0.1.0 alias key (`slack: …`). */
const exampleBlocks = new Set(
  readdirSync(join(repo, 'manifests/chat-notifier/examples'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(repo, 'manifests/chat-notifier/examples', f), 'utf8')).flatMap(
        (d) => {
          const templates = (
            d.toJSON() as { spec?: { templates?: Array<{ plugin?: Record<string, unknown> }> } }
          ).spec?.templates;
          return (templates ?? []).flatMap(({ plugin }) => [
            ...Object.keys((plugin?.notify ?? {}) as object),
            ...Object.keys(plugin ?? {}).flatMap((key) => {
              const field = chatNotifierPlugin.aliases?.[key];
              return field ? [field] : [];
            }),
          ]);
        },
      ),
    ),
);

describe.each(PROVIDERS.providers.map((p) => [p.key, p] as const))('provider %s', (key, provider) => {
  const folder = providerFolder(key);

  it('has its folder under providers/ and its variables, each in one of its families', () => {
    expect(existsSync(join(app, 'src/providers', folder, 'index.ts'))).toBe(true);
    const variables = envProperties(provider.variables(class {}));
    expect(variables.length).toBeGreaterThan(0);
    for (const variable of variables)
      expect({ variable, inFamily: provider.prefixes.some((p) => variable.startsWith(p)) }).toEqual({
        variable,
        inFamily: true,
      });
    expect(chatNotifierPlugin.envPrefixes).toEqual(expect.arrayContaining([...provider.prefixes]));
  });

  it('reads settings: none configured, no problem, from an empty environment', () => {
    const env = new (provider.variables(class {}))();
    const read = provider.read(env, {});
    expect(read.problems).toEqual([]);
    expect(provider.configured(read.settings)).toBe(false);
    expect(Object.keys(provider.destinations(read.settings)).sort()).toEqual([...provider.scopeKinds].sort());
  });

  it('has a body class (its DTO) and a Nest provider', () => {
    const loaded = modules.find((m) => m.key === key)!;
    expect(typeof loaded.config).toBe('function');
    expect(typeof loaded.provider.prototype.execute).toBe('function');
  });

  it('has a stand-in folder, its HTTP stand-ins built on the shared base', async () => {
    const dir = join(app, 'stand-ins', folder);
    const files = readdirSync(dir).filter((f) => f.endsWith('.stand-in.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const exported = Object.values(await import(join(dir, file))) as unknown[];
      const standIns = exported.filter(
        (e): e is { name: string; prototype: object } =>
          typeof e === 'function' && e.name.endsWith('StandIn'),
      );
      expect(standIns.length).toBeGreaterThan(0);
      // SMTP is the one service of the notifier not spoken over HTTP.
      for (const standIn of standIns)
        expect({
          standIn: standIn.name,
          onTheBase: standIn.prototype instanceof ProviderStandIn || file === 'smtp.stand-in.ts',
        }).toEqual({
          standIn: standIn.name,
          onTheBase: true,
        });
    }
  });

  it('has an example under manifests/chat-notifier/examples', () => {
    expect(exampleBlocks).toContain(key);
  });

  it('has its variables in the rows of docs/chat-notifier.md', () => {
    for (const variable of envProperties(provider.variables(class {})))
      expect({ variable, row: docRows.some((row) => row.includes(variable)) }).toEqual({
        variable,
        row: true,
      });
  });
});
