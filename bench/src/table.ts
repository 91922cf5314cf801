/** Plain-text table and number formatting for the benchmark report. */

export function renderTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 0 ? (c ?? '').padEnd(widths[i]) : (c ?? '').padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** `12.3` style with a unit, or `–` when there is no value. */
export function fmt(value: number | undefined, unit = '', digits = 0): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return `${value.toFixed(digits)}${unit}`;
}

export function fmtRatio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '' : ` (${value.toFixed(2)}×)`;
}

/** A figure with its ratio to the baseline: `123 ms (1.40×)`. */
export function withRatio(
  value: number | undefined,
  ratioToBase: number | undefined,
  unit = '',
  digits = 0,
): string {
  return `${fmt(value, unit, digits)}${value === undefined ? '' : fmtRatio(ratioToBase)}`;
}

export const KiB_PER_MiB = 1024;

export function mib(kib: number | undefined): number | undefined {
  return kib === undefined ? undefined : kib / KiB_PER_MiB;
}
