/** Small statistics for benchmark samples. Empty input gives undefined rather than NaN. */

export function median(values: readonly number[]): number | undefined {
  return percentile(values, 50);
}

/** Linear-interpolated percentile (p in 0..100) of the samples. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

export function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

export function max(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : Math.max(...values);
}

/** value / base, or undefined when either is missing or the base is zero. */
export function ratio(value: number | undefined, base: number | undefined): number | undefined {
  if (value === undefined || base === undefined || base === 0) return undefined;
  return value / base;
}

export interface Summary {
  n: number;
  median?: number;
  min?: number;
  max?: number;
  p90?: number;
}

export function summarize(values: readonly number[]): Summary {
  return {
    n: values.length,
    median: median(values),
    min: values.length ? Math.min(...values) : undefined,
    max: max(values),
    p90: percentile(values, 90),
  };
}
