import { max, mean, median, percentile, ratio, summarize } from './stats.js';

describe('benchmark statistics', () => {
  it('takes the median of odd and even samples without reordering the input', () => {
    const samples = [30, 10, 20];
    expect(median(samples)).toBe(20);
    expect(samples).toEqual([30, 10, 20]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('interpolates percentiles and clamps p', () => {
    const samples = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile(samples, 100)).toBe(10);
    expect(percentile(samples, 90)).toBeCloseTo(9.1);
    expect(percentile(samples, 150)).toBe(10);
  });

  it('gives undefined, not NaN, for no samples or a zero base', () => {
    expect(median([])).toBeUndefined();
    expect(mean([])).toBeUndefined();
    expect(max([])).toBeUndefined();
    expect(ratio(5, 0)).toBeUndefined();
    expect(ratio(undefined, 2)).toBeUndefined();
    expect(ratio(3, 2)).toBe(1.5);
    expect(summarize([])).toEqual({
      n: 0,
      median: undefined,
      min: undefined,
      max: undefined,
      p90: undefined,
    });
  });

  it('summarizes samples', () => {
    expect(summarize([5, 1, 3])).toEqual({ n: 3, median: 3, min: 1, max: 5, p90: 4.6 });
  });
});
