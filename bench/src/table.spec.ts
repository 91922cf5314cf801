import { fmt, fmtRatio, mib, renderTable, withRatio } from './table.js';

describe('benchmark table', () => {
  it('aligns the first column left and the others right, with a rule under the header', () => {
    const text = renderTable(
      ['metric', 'baseline', 'slack'],
      [
        ['cold start', '60 ms', '90 ms (1.50×)'],
        ['rss', '43.0 MiB', '–'],
      ],
    );
    expect(text.split('\n')).toEqual([
      'metric      baseline          slack',
      '----------  --------  -------------',
      'cold start     60 ms  90 ms (1.50×)',
      'rss         43.0 MiB              –',
    ]);
  });

  it('formats missing values as a dash and ratios with two decimals', () => {
    expect(fmt(undefined, ' ms')).toBe('–');
    expect(fmt(Number.NaN)).toBe('–');
    expect(fmt(12.345, ' ms', 1)).toBe('12.3 ms');
    expect(fmtRatio(1.5)).toBe(' (1.50×)');
    expect(fmtRatio(undefined)).toBe('');
    expect(withRatio(120, 2, ' ms')).toBe('120 ms (2.00×)');
    expect(withRatio(undefined, 2, ' ms')).toBe('–');
    expect(withRatio(120, undefined, ' ms')).toBe('120 ms');
    expect(mib(2048)).toBe(2);
    expect(mib(undefined)).toBeUndefined();
  });
});
