import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
// @ts-expect-error: the build script is plain JavaScript
import { bundleEntry } from '../build.mjs';

/**
 * The build's start-path merge when two chunks on the start path export the same name: esbuild names a chunk's
 * exports after its symbols, so two modules' `helper`s shared with different lazy modules land in two chunks that
 * both export `helper`. main.js must export both, and each lazy chunk must get its own.
 */
describe('the start path merged into main.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-path-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps two chunks exporting the same name apart', async () => {
    const files: Record<string, string> = {
      'one.ts': "export function helper(): string { return 'one'; }\n",
      'two.ts': "export function helper(): string { return 'two'; }\n",
      'lazy-a.ts': "import { helper } from './one.js';\nexport const a = (): string => `a:${helper()}`;\n",
      'lazy-b.ts': "import { helper } from './two.js';\nexport const b = (): string => `b:${helper()}`;\n",
      // Loaded after main.js has run, as a sidecar loads a plugin on its first call (a top-level await of a
      // lazy chunk would wait for main.js, which waits for it).
      'main.ts':
        "import { helper as one } from './one.js';\nimport { helper as two } from './two.js';\n" +
        "void Promise.all([import('./lazy-a.js'), import('./lazy-b.js')]).then(([{ a }, { b }]) =>\n" +
        "  console.log([one(), two(), a(), b()].join(' ')));\n",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const out = join(dir, 'app');
    await (bundleEntry as (entry: string, out: string, name: string) => Promise<unknown>)(
      join(dir, 'main.ts'),
      out,
      'start-path-fixture',
    );

    const main = readFileSync(join(out, 'main.js'), 'utf8');
    expect(main).not.toMatch(/(from|import)\s*["']\.\/chunks\//);
    const chunks = readdirSync(join(out, 'chunks')).map((f) => readFileSync(join(out, 'chunks', f), 'utf8'));
    const aliases = chunks.flatMap((text) => [...text.matchAll(/(helper\$\d+) as helper/g)].map((m) => m[1]));
    expect(new Set(aliases).size).toBe(2);

    const run = spawnSync(process.execPath, [join(out, 'main.js')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('one two a:one b:two');
  }, 60_000);
});
