/** One row of the demo's summary: what ran, its phase, the verdict, and how long it took (unknown for a workflow a binding submitted in the background). */
export type SummaryRow = [what: string, phase: string, verdict: string, ms: number | undefined];

/** The summary's lines, columns as wide as their longest cell, so every row lines up. */
export function summaryLines(rows: SummaryRow[]): string[] {
  const width = Math.max(0, ...rows.map(([what]) => what.length));
  return rows.map(
    ([what, phase, verdict, ms]) =>
      `  ${verdict === 'as expected' ? '✔' : '✖'} ${what.padEnd(width)} ${phase.padEnd(10)} ${(ms === undefined ? '' : `${ms} ms`).padStart(9)}  ${verdict}`,
  );
}
