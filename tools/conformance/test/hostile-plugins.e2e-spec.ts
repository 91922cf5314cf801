import { exitCodeFor, type ConformanceReport } from '../src/report/report.js';
import { runConformance } from '../src/run.js';
import { HUGE_BYTES, startHostilePlugin, type HostileKind } from './fixtures/hostile-plugin.js';
import { tokenDir } from './support/fixtures.js';

/**
 * The kit against plugins that never let a reply end: every run comes to a verdict, the plugin failing the
 * rule, within the run's deadline, and a 1 GiB reply is never held.
 */
const tokens = tokenDir();
afterAll(() => tokens.remove());

const statusOf = (r: ConformanceReport, id: string) => r.results.find((x) => x.id === id);

async function run(
  kind: HostileKind,
  deadlineMs?: number,
): Promise<{ report: ConformanceReport; ms: number; peakRssGrowth: number; written: number[] }> {
  const plugin = await startHostilePlugin(kind);
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  try {
    const report = await runConformance({
      url: plugin.url,
      token: tokens.token,
      key: 'hostile',
      timeScale: 0.05,
      ...(deadlineMs !== undefined && { deadlineMs }),
    });
    return { report, ms: performance.now() - t0, peakRssGrowth: peak - rss0, written: plugin.written };
  } finally {
    clearInterval(sampler);
    await plugin.close();
  }
}

describe('conformance against hostile plugins', () => {
  it('a plugin answering 1 GiB to every request: each reply read to 4 MiB at most (1 MiB off the agent path), never held; the plugin fails', async () => {
    const { report, ms, peakRssGrowth, written } = await run('huge');
    expect(ms).toBeLessThan(120_000);
    // The plugin could write only what the socket buffers and the 4 MiB the kit read took.
    expect(written.length).toBeGreaterThan(0);
    expect(Math.max(...written)).toBeLessThan(HUGE_BYTES / 16);
    expect(peakRssGrowth).toBeLessThan(256 * 1024 * 1024);
    expect(statusOf(report, 'foreign-template')).toMatchObject({ status: 'fail' });
    expect(statusOf(report, 'foreign-template')!.verdict).toContain('reply larger than 4 MiB');
    expect(statusOf(report, 'json-body')).toMatchObject({ status: 'fail' });
    expect(exitCodeFor(report)).toBe(1);
  }, 180_000);

  it.each<HostileKind>(['silent', 'trickle'])(
    'a %s plugin: the rule running at the deadline fails with it, the rest are not run, exit 1',
    async (kind) => {
      const { report, ms } = await run(kind, 12_000);
      expect(ms).toBeLessThan(12_000 + 5_000);
      expect(report.stopped).toBe("the run's deadline (12s) passed");
      const failed = report.results.filter((r) => r.status === 'fail');
      expect(failed.map((r) => r.verdict)).toContain("the run's deadline (12s) passed");
      const notRun = report.results.filter((r) => r.verdict.startsWith('not run: '));
      expect(notRun.length).toBeGreaterThan(5);
      expect(exitCodeFor(report)).toBe(1);
    },
    60_000,
  );
});
