// The kit's command line with --start: the plugin it launches reads the kit's token (TOKEN_FILE), and a plugin
// that reads another token is named as such (every call got 403), not reported as broken.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StandInServer } from '@app/local-agent/stand-in/index.js';
import { CHECKOUT, runCli, type CliIo } from '../src/cli.js';
import { bundleScript, fixturesDir, freePort, startEffectsUpstream, tokenDir } from './support/fixtures.js';

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: {},
  };
  const code = await runCli(argv, io, CHECKOUT);
  return { code, stdout, stderr };
}

describe('conformance --start from the command line', () => {
  const tokens = tokenDir();
  let upstream: StandInServer;
  let countUrl: string;
  let script: string;

  beforeAll(async () => {
    ({ upstream, countUrl } = await startEffectsUpstream());
    script = await bundleScript(join(fixturesDir, 'mini-main.ts'), join(tokens.dir, 'mini-main.mjs'));
  });
  afterAll(async () => {
    await upstream.close();
    tokens.remove();
  });

  async function run(command: (port: number) => string, extra: string[] = []) {
    const port = await freePort();
    return cli([
      '--url',
      `http://127.0.0.1:${port}`,
      '--token-file',
      tokens.tokenFile,
      '--key',
      'mini',
      '--config',
      '{"message": "hello", "jobMs": 100}',
      '--count-url',
      countUrl,
      '--start',
      command(port),
      '--time-scale',
      '0.05',
      '--grace-period',
      '2s',
      '--output',
      'json',
      ...extra,
    ]);
  }

  it('hands the launched plugin the kit token file as TOKEN_FILE: every rule passes', async () => {
    const r = await run((port) => `PORT=${port} MINI_UPSTREAM_URL=${upstream.url} node ${script}`);
    const report = JSON.parse(r.stdout) as { results: { id: string; status: string }[] };
    expect(report.results.filter((x) => x.status === 'fail')).toEqual([]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('a plugin that reads another token: one line saying every call got 403, exit 2', async () => {
    const other = join(tokens.dir, 'other-token');
    writeFileSync(other, 'another-token-of-32-characters-x');
    const r = await run(
      (port) => `PORT=${port} TOKEN_FILE=${other} MINI_UPSTREAM_URL=${upstream.url} node ${script}`,
    );
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(
      /^conformance: every call got 403: does the plugin read the same token file\? \(\d+ calls with the token of --token-file; [^\n]*\)\n$/,
    );
  });

  it('names a missing token or config file in one line, exit 2, in the checkout as npm run conformance', async () => {
    const usage = ' (usage: npm run conformance -- --help)\n';
    const missing = join(tokens.dir, 'missing');
    const base = ['--url', 'http://127.0.0.1:1', '--key', 'k'];
    expect(await cli([...base, '--token-file', missing])).toEqual({
      code: 2,
      stdout: '',
      stderr: `conformance: --token-file: ${missing}: no such file${usage}`,
    });
    expect(
      (await cli([...base, '--token-file', tokens.tokenFile, '--config', `${missing}.yaml`])).stderr,
    ).toBe(`conformance: --config: ${missing}.yaml: no such file${usage}`);
    expect((await cli(['--help'])).stdout).toMatch(/^usage: npm run conformance -- --url /);
  });
});
