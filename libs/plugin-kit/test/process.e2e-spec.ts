import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { executeArgs, startPluginProcess } from '@app/local-agent';
// @ts-expect-error: the build script is plain JavaScript
import { bundleEntry } from '../../../tools/build.mjs';

const TOKEN = 'bcdfghjklmnpqrstvwxz2456789bcdfg';

/** The probe plugin bundled like an app and copied outside the repository: no node_modules to lean on. */
describe('a bundled plugin as a process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-process-'));
  const bundle = join(dir, 'app');
  const tokenFile = join(dir, 'token');
  beforeAll(async () => {
    await (bundleEntry as (entry: string, out: string, name: string) => Promise<unknown>)(
      join(import.meta.dirname, 'fixtures/probe-main.ts'),
      bundle,
      'probe',
    );
    writeFileSync(tokenFile, TOKEN);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const post = (url: string, body: unknown) =>
    fetch(`${url}/api/v1/template.execute`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(body),
    });

  it('runs its start path as one module: main.js imports no chunk statically, the lazy chunks import main.js', () => {
    const main = readFileSync(join(bundle, 'main.js'), 'utf8');
    expect(main).not.toMatch(/(from|import)\s*["']\.\/chunks\//);
    expect(main).toMatch(/import\(["']\.\/chunks\//);
    const chunks = readdirSync(join(bundle, 'chunks')).map((f) =>
      readFileSync(join(bundle, 'chunks', f), 'utf8'),
    );
    expect(chunks.some((text) => /from\s*"\.\.\/main\.js"/.test(text))).toBe(true);
    // Every chunk a chunk imports is still there (none of the merged ones is left behind).
    const names = new Set(readdirSync(join(bundle, 'chunks')));
    for (const text of chunks)
      for (const [, name] of text.matchAll(/["']\.\/([\w.-]+\.js)["']/g)) expect(names.has(name)).toBe(true);
  });

  it('exits 1 with one clear line naming the bad variable', () => {
    const run = spawnSync(process.execPath, [join(bundle, 'main.js')], {
      env: { PATH: process.env.PATH, PROBE_SECRET: '', CALL_DEADLINE: 'soon', TOKEN_FILE: tokenFile },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'error',
      plugin: 'probe',
      msg: 'invalid configuration: CALL_DEADLINE: must be a Go duration such as 30s or 1m30s between 100ms and 29s',
    });
  });

  it('loads the plugin module only on the first call addressed to it, and drains on SIGTERM with exit 0', async () => {
    const proc = await startPluginProcess(
      'probe',
      join(bundle, 'main.js'),
      { TOKEN_FILE: tokenFile },
      { cwd: dir },
    );
    try {
      expect((await post(proc.url, executeArgs({ other: {} }))).status).toBe(200);
      expect(proc.logs.some((l) => l.msg === 'plugin module loaded')).toBe(false);
      const res = await post(proc.url, executeArgs({ probe: { message: 'hi' } }));
      expect(((await res.json()) as { node: { phase: string } }).node.phase).toBe('Succeeded');
      expect(proc.logs.some((l) => l.msg === 'plugin module loaded')).toBe(true);

      const slow = post(proc.url, executeArgs({ probe: { delayMs: 500, key: 'slow' } }));
      await new Promise((r) => setTimeout(r, 150));
      const exit = proc.stop();
      expect(((await (await slow).json()) as { node: { phase: string } }).node.phase).toBe('Succeeded');
      expect(await exit).toBe(0);
      expect(proc.logs.find((l) => l.msg === 'stopped')).toMatchObject({ clean: true });
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});
