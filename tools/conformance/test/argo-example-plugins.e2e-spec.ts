import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exitCodeFor } from '../src/report/report.js';
import { renderText } from '../src/report/text.js';
import { runConformance } from '../src/run.js';
import { freePort, repoRoot, tokenDir } from './support/fixtures.js';

/**
 * Argo's own hello executor plugin (the server.py of argo-workflows' test/e2e/manifests/plugins, kept in
 * libs/manifests/test/fixtures/hello), which Argo runs successfully. Its token check covers POST only, and
 * GET/PUT/DELETE are answered 501 by Python's http.server: security findings, never "breaks workflows".
 * The test runs the real server.py with two literals changed: the token file and the port.
 */
describe("conformance: Argo's hello plugin", () => {
  const tokens = tokenDir();
  afterAll(() => tokens.remove());

  it('exits 0, with its security findings listed', async () => {
    const port = await freePort();
    const source = readFileSync(join(repoRoot, 'libs/manifests/test/fixtures/hello/server.py'), 'utf8');
    const server = join(tokens.dir, 'hello-server.py');
    writeFileSync(
      server,
      source.replace('/var/run/argo/token', tokens.tokenFile).replace('4355', String(port)),
    );
    const report = await runConformance({
      url: `http://127.0.0.1:${port}`,
      token: tokens.token,
      key: 'hello',
      config: {},
      start: { command: `python3 -u ${server}`, env: {} },
      timeScale: 0.05,
      gracePeriodMs: 5000,
    });
    const failed = report.results.filter((r) => r.status === 'fail');
    expect(Object.fromEntries(failed.map((r) => [r.id, r.severity]))).toEqual({
      'auth-every-path': 'security', // GET/PUT/DELETE → 501, unknown POST paths checked
      'bad-config-failed': 'hygiene', // it ignores its body: anything is "Hello template!"
      sigterm: 'hygiene', // Python's default SIGTERM handling: killed, not a graceful stop
    });
    expect(report.results.find((r) => r.id === 'auth-every-path')!.verdict).toMatch(
      /GET \/api\/v1\/template.execute → 501/,
    );
    expect(exitCodeFor(report)).toBe(0);
    const text = renderText(report, { exitCode: exitCodeFor(report) });
    expect(text).toMatch(/^FAIL +security +auth-every-path /m);
    expect(text).toMatch(/^exit 0 /m);
  });
});
