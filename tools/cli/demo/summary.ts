/** One workflow the demo ran, in one pass (the single plugins, or the collection). */
export interface DemoRun {
  /** `build-trigger/jenkins-build.yaml`, or the name of a workflow a binding submitted. */
  workflow: string;
  /** What it called: `build: jenkins` (plugin key: provider), or what submitted it (`binding ci-finished`). */
  calls: string;
  pass: string;
  phase: string;
  /** The phase it was expected to end in. */
  expected: string;
}

/** The plugin steps of a workflow as `key: provider` (`build: github, gitlab`), or the key alone. */
export function pluginCalls(templates: ReadonlyArray<{ plugin?: unknown }>): string {
  const calls = new Map<string, Set<string>>();
  for (const { plugin } of templates) {
    if (!plugin || typeof plugin !== 'object') continue;
    const [key] = Object.keys(plugin);
    if (key === undefined) continue;
    const providers = calls.get(key) ?? new Set<string>();
    calls.set(key, providers);
    const provider = providerOf((plugin as Record<string, unknown>)[key]);
    if (provider) providers.add(provider);
  }
  return [...calls]
    .map(([key, providers]) => (providers.size > 0 ? `${key}: ${[...providers].join(', ')}` : key))
    .join(' · ');
}

/**
 * The provider block of a plugin body: written first, and the body's only object (`{jenkins: {...}, timeout}`);
 * a body whose fields are all its own (`{channel, text}`, `{payload: {...}, headers: {...}}`) names none.
 */
function providerOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const objects = Object.entries(body).filter(
    ([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v),
  );
  return objects.length === 1 && Object.keys(body)[0] === objects[0][0] ? objects[0][0] : undefined;
}

const asExpected = (run: DemoRun): boolean => run.phase === run.expected;

/**
 * The demo's last screen: one row per workflow, its phase in each pass, ✔ when every pass ended as expected;
 * columns as wide as their longest cell.
 */
export function summaryTable(runs: DemoRun[], passes: string[]): string[] {
  const rows = new Map<string, { workflow: string; calls: string; cells: Map<string, DemoRun> }>();
  for (const run of runs) {
    const id = `${run.workflow}\n${run.calls}`;
    const row = rows.get(id) ?? { workflow: run.workflow, calls: run.calls, cells: new Map() };
    rows.set(id, row);
    row.cells.set(run.pass, run);
  }
  const cell = (run: DemoRun | undefined): string =>
    run === undefined ? '' : asExpected(run) ? run.phase : `${run.phase} (expected ${run.expected})`;
  const table = [...rows.values()].map((row) => ({
    mark: [...row.cells.values()].every(asExpected) ? '✔' : '✖',
    cells: [row.workflow, row.calls, ...passes.map((pass) => cell(row.cells.get(pass)))],
  }));
  const header = ['WORKFLOW', 'PLUGIN: PROVIDER', ...passes.map((p) => p.toUpperCase())];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r.cells[i].length)));
  const line = (mark: string, cells: string[]): string =>
    `${mark} ${cells.map((c, i) => c.padEnd(widths[i])).join('  ')}`.trimEnd();
  return [line(' ', header), ...table.map((r) => line(r.mark, r.cells))];
}
