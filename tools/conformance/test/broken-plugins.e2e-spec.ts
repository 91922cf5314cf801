import { join } from 'node:path';
import type { StandInServer } from '@app/local-agent/stand-in/index.js';
import { exitCodeFor, type ConformanceReport } from '../src/report/report.js';
import { RULES } from '../src/rules/index.js';
import { runConformance, type ConformanceOptions } from '../src/run.js';
import { startMiniPlugin, type MiniBug } from './fixtures/mini-plugin.js';
import { bundleScript, fixturesDir, freePort, startEffectsUpstream, tokenDir } from './support/fixtures.js';

const CONFIG = { message: 'hello', jobMs: 100 };
const SECRET = 'mini-api-token-5f3a9c1e77d24b08';

const failedIds = (r: ConformanceReport): string[] =>
  r.results.filter((x) => x.status === 'fail').map((x) => x.id);
const statusOf = (r: ConformanceReport, id: string): string | undefined =>
  r.results.find((x) => x.id === id)?.status;

/** Each bug, and the one rule that must catch it. */
const BUGS: Array<[MiniBug, string]> = [
  ['execute-accepts-any-bearer', 'auth-execute'],
  ['no-auth-on-unknown-paths', 'auth-every-path'],
  ['reads-body-before-auth', 'auth-before-body'],
  ['unknown-method-200', 'unknown-method-404'],
  ['foreign-400', 'foreign-template'],
  ['foreign-404', 'foreign-template'],
  ['success-201', 'status-200'],
  ['empty-success-body', 'json-body'],
  ['lowercase-phase', 'node-phase'],
  ['empty-node', 'node-phase'],
  ['running-without-requeue', 'requeue-on-running'],
  ['numeric-requeue', 'requeue-format'],
  ['requeue-with-failed', 'no-requeue-on-failed'],
  ['bad-config-400', 'bad-config-status'],
  ['accepts-unknown-fields', 'bad-config-failed'],
  ['duplicate-effects', 'idempotency'],
  ['rejects-extra-template-fields', 'extra-template-fields'],
  ['key-order-sensitive', 'key-order'],
  ['secret-in-reply', 'no-secret-in-reply'],
];

describe('conformance rules against deliberately broken plugins', () => {
  const tokens = tokenDir();
  let upstream: StandInServer;
  let countUrl: string;

  beforeAll(async () => ({ upstream, countUrl } = await startEffectsUpstream()));
  afterAll(async () => {
    await upstream.close();
    tokens.remove();
  });

  const options = (url: string): ConformanceOptions => ({
    url,
    token: tokens.token,
    key: 'mini',
    config: CONFIG,
    countUrl,
    secrets: [{ name: 'MINI_API_TOKEN', value: SECRET }],
    timeScale: 0.05,
  });

  async function check(bugs: MiniBug[]): Promise<ConformanceReport> {
    const plugin = await startMiniPlugin({
      token: tokens.token,
      upstreamUrl: upstream.url,
      bugs,
      secret: SECRET,
    });
    try {
      return await runConformance(options(plugin.url));
    } finally {
      await plugin.close();
    }
  }

  it('a correct plugin passes every rule (the launch rules are skipped without --start)', async () => {
    const report = await check([]);
    const expected = Object.fromEntries(RULES.map((r) => [r.id, 'pass']));
    Object.assign(expected, { 'cold-start': 'skip', sigterm: 'skip' });
    expect(Object.fromEntries(report.results.map((r) => [r.id, r.status]))).toEqual(expected);
    expect(report.results.find((r) => r.id === 'idempotency')!.verdict).toContain(
      'exactly 1 upstream side effect',
    );
    expect(exitCodeFor(report)).toBe(0);
  });

  it('every rule has a bug here that it alone catches', () => {
    const launchRules = ['cold-start', 'sigterm'];
    const covered = new Set([...BUGS.map(([, rule]) => rule), ...launchRules]);
    expect(RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it.each(BUGS)('%s is caught by %s, and by no other rule', async (bug, rule) => {
    const report = await check([bug]);
    expect(failedIds(report)).toEqual([rule]);
    const result = report.results.find((r) => r.id === rule)!;
    expect(result.verdict).not.toBe('');
    expect(result.evidence.length).toBeGreaterThan(0);
    expect(exitCodeFor(report)).toBe(result.severity === 'breaks-workflow' ? 1 : 0);
    expect(exitCodeFor(report, true)).toBe(1);
    expect(JSON.stringify(report)).not.toContain(SECRET);
    expect(JSON.stringify(report)).not.toContain(tokens.token);
  });

  describe('launched with --start', () => {
    let script: string;
    beforeAll(async () => {
      script = await bundleScript(join(fixturesDir, 'mini-main.ts'), join(tokens.dir, 'mini-main.mjs'));
    });

    async function launch(env: Record<string, string>, extra: Partial<ConformanceOptions> = {}) {
      const port = await freePort();
      return runConformance({
        ...options(`http://127.0.0.1:${port}`),
        start: {
          command: `node ${script}`,
          env: { PORT: String(port), TOKEN_FILE: tokens.tokenFile, MINI_UPSTREAM_URL: upstream.url, ...env },
        },
        gracePeriodMs: 1000,
        ...extra,
      });
    }

    it('a plugin that ignores SIGTERM is caught by sigterm alone', async () => {
      const report = await launch({ MINI_IGNORE_SIGTERM: '1' });
      expect(failedIds(report)).toEqual(['sigterm']);
      expect(statusOf(report, 'cold-start')).toBe('pass');
      expect(report.results.find((r) => r.id === 'sigterm')!.verdict).toContain('ignored SIGTERM');
    });

    it("a plugin that starts after the agent's retry window fails cold-start, and nothing else is run", async () => {
      const report = await launch({ MINI_START_DELAY_MS: '4000' }, { startWindowMs: 1000 });
      expect(failedIds(report)).toEqual(['cold-start']);
      expect(report.results.filter((r) => r.status === 'skip').length).toBe(RULES.length - 1);
      expect(exitCodeFor(report)).toBe(1);
    });

    it('a plugin that exits at once fails cold-start with its exit code', async () => {
      const report = await launch({ TOKEN_FILE: join(tokens.dir, 'missing-token') }, { startWindowMs: 1000 });
      const cold = report.results.find((r) => r.id === 'cold-start')!;
      expect(cold.status).toBe('fail');
      expect(cold.verdict).toMatch(/exited \(exit code 1\)/);
    });
  });
});
