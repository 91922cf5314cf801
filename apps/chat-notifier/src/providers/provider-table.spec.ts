// The providers' modules are imported up front (see test/support.ts: Jest's ESM loader and concurrent imports).
import { preloadProviderModules } from '../../test/support.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { providerFolder } from '@app/plugin-kit';
import { ProviderStandIn } from '@app/local-agent';
import { describeProviderTable, exampleBlocksByFile } from '@app/local-agent/provider-table-checks.js';
import { chatNotifierPlugin } from '../chat-notifier.plugin.js';
import { PROVIDERS } from './index.js';

const app = join(import.meta.dirname, '../..');
const modules = await preloadProviderModules();

const checks = {
  app: 'chat-notifier',
  key: chatNotifierPlugin.key,
  aliases: chatNotifierPlugin.aliases,
  envPrefixes: chatNotifierPlugin.envPrefixes ?? [],
  table: PROVIDERS,
  notHttp: ['SmtpStandIn'],
};
describeProviderTable(checks);

const docs = readFileSync(join(app, '../../docs/chat-notifier.md'), 'utf8');
const examples = exampleBlocksByFile(checks);

describe.each(PROVIDERS.providers.map((p) => [p.key] as const))('provider %s of the notifier', (key) => {
  const folder = providerFolder(key);

  it('has an example named in the Examples of docs/chat-notifier.md', () => {
    const files = [...examples].filter(([, blocks]) => blocks.has(key)).map(([file]) => file);
    expect({ key, files, named: files.some((f) => docs.includes(`\`${f}\``)) }).toEqual({
      key,
      files,
      named: true,
    });
  });

  it('has a body class (its DTO) and a Nest provider', () => {
    const loaded = modules.get(key)!;
    expect(typeof loaded.block).toBe('function');
    expect(typeof loaded.provider.prototype.execute).toBe('function');
  });

  it('has its HTTP stand-ins built on the shared base', async () => {
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
});
