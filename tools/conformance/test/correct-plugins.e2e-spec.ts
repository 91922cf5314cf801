import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StandInServer } from '@app/local-agent/stand-in/index.js';
import { buildConformance } from '../build.mjs';
import type { ConformanceReport } from '../src/report/report.js';
import { RULES } from '../src/rules/index.js';
import { runConformance } from '../src/run.js';
import { startMiniPlugin } from './fixtures/mini-plugin.js';
import {
  bundlePlugin,
  fixturesDir,
  freePort,
  repoRoot,
  startEffectsUpstream,
  tokenDir,
} from './support/fixtures.js';

const run = promisify(execFile);
const statuses = (r: ConformanceReport): Record<string, string> =>
  Object.fromEntries(r.results.map((x) => [x.id, x.status]));
const allPass = (overrides: Record<string, string> = {}): Record<string, string> => ({
  ...Object.fromEntries(RULES.map((r) => [r.id, 'pass'])),
  ...overrides,
});

/** Runs the published bundle (dist/conformance.mjs) like `npx` would; resolves with the exit code and output. */
async function cli(bundle: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bundle, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('conformance: correct plugins pass every rule', () => {
  const tokens = tokenDir();
  afterAll(() => tokens.remove());

  it('the kit probe plugin, bundled like an app and launched with --start', async () => {
    const main = await bundlePlugin(
      join(repoRoot, 'libs/plugin-kit/test/fixtures/probe-main.ts'),
      join(tokens.dir, 'probe'),
    );
    const port = await freePort();
    const secret = 'probe-secret-value-for-conformance';
    const report = await runConformance({
      url: `http://127.0.0.1:${port}`,
      token: tokens.token,
      key: 'probe',
      config: { outcome: 'poll', message: 'conformance' },
      secrets: [{ name: 'PROBE_SECRET', value: secret }],
      start: {
        command: `node ${main}`,
        env: { PORT: String(port), TOKEN_FILE: tokens.tokenFile, PROBE_SECRET: secret, LOG_LEVEL: 'info' },
      },
      timeScale: 0.05,
      gracePeriodMs: 10_000,
    });
    expect(statuses(report)).toEqual(allPass());
    expect(report.score).toMatchObject({ failed: 0, skipped: 0, percent: 100 });
  });

  describe('through the published bundle (dist/conformance.mjs)', () => {
    let bundle: string;
    beforeAll(async () => {
      // Built outside the repo: ESLint would lint a bundle left in tools/conformance/dist.
      bundle = await buildConformance({ outfile: join(tokens.dir, 'conformance.mjs') });
    });

    it('a Python plugin launched with --start: the full rule set, JSON and JUnit output, exit 0', async () => {
      const port = await freePort();
      const config = join(tokens.dir, 'pyhello.yaml');
      writeFileSync(config, 'pyhello:\n  name: conformance\n');
      const junit = join(tokens.dir, 'pyhello.xml');
      const server = join(fixturesDir, 'python-plugin/server.py');
      const { code, stdout, stderr } = await cli(
        bundle,
        [
          ...['--url', `http://127.0.0.1:${port}`, '--token-file', tokens.tokenFile, '--key', 'pyhello'],
          ...[
            '--config',
            config,
            '--secret-env',
            'PYHELLO_API_KEY',
            '--time-scale',
            '0.05',
            '--grace-period',
            '5s',
          ],
          ...['--start', `PORT=${port} TOKEN_FILE=${tokens.tokenFile} python3 ${server}`],
          ...['--output', 'json', '--junit-file', junit],
        ],
        { PYHELLO_API_KEY: 'pyhello-api-key-not-used-by-it' },
      );
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(stdout) as ConformanceReport & { exitCode: number };
      // One key in the body: its order cannot vary; the plugin answers at once: never Running.
      expect(statuses(report)).toEqual(allPass({ 'key-order': 'skip', 'requeue-on-running': 'skip' }));
      expect(report.results.find((r) => r.id === 'cold-start')!.verdict).toMatch(
        /answered \d+ ms after spawn/,
      );
      const xml = readFileSync(junit, 'utf8');
      expect(xml.match(/<testcase /g)).toHaveLength(RULES.length);
      expect(xml).toContain(`tests="${RULES.length}" failures="0" errors="0" skipped="2"`);
    });

    describe('against a plugin that breaks others', () => {
      let upstream: StandInServer;
      beforeAll(async () => ({ upstream } = await startEffectsUpstream()));
      afterAll(() => upstream.close());

      it('exit 1 and a JUnit failure carrying the verdict and the evidence', async () => {
        const plugin = await startMiniPlugin({
          token: tokens.token,
          upstreamUrl: upstream.url,
          bugs: ['foreign-400'],
        });
        try {
          const args = [
            '--url',
            plugin.url,
            '--token-file',
            tokens.tokenFile,
            '--key',
            'mini',
            '--output',
            'junit',
          ];
          const { code, stdout } = await cli(bundle, args);
          expect(code).toBe(1);
          const failure =
            /<testcase classname="conformance\.breaks-workflow" name="foreign-template: [^"]*"[^>]*>\s*<failure type="breaks-workflow" message="([^"]*)">([^<]*)<\/failure>/.exec(
              stdout,
            );
          expect(failure).not.toBeNull();
          expect(failure![1]).toContain('not declined');
          expect(failure![2]).toContain('400');
          expect(stdout.match(/<failure /g)).toHaveLength(1);
        } finally {
          await plugin.close();
        }
      });

      it('exit 2 with a clear message when the plugin is not there', async () => {
        const port = await freePort();
        const args = ['--url', `http://127.0.0.1:${port}`, '--token-file', tokens.tokenFile, '--key', 'mini'];
        const { code, stderr } = await cli(bundle, args);
        expect(code).toBe(2);
        expect(stderr).toContain('cannot reach the plugin');
      });
    });
  });
});
