import { formatDuration, parseDuration, tryParseDuration } from './duration.js';

describe('Go durations', () => {
  it.each([
    ['30s', 30_000],
    ['1m30s', 90_000],
    ['2h', 7_200_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['1h2m3s4ms', 3_723_004],
    ['-2m', -120_000],
    ['+5s', 5000],
    ['0', 0],
    ['0s', 0],
    ['.5s', 500],
    ['1.s', 1000],
    ['100us', 0.1],
    ['100µs', 0.1],
    ['1000ns', 0.001],
  ])('parses %s', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 6);
  });

  it.each([[''], ['30'], ['s'], ['1d'], ['1.2.3s'], ['ms5'], ['--1s'], ['1 s'], ['.s']])(
    'rejects %j like time.ParseDuration',
    (text) => {
      expect(() => parseDuration(text)).toThrow(/^time: /);
      expect(tryParseDuration(text)).toBeUndefined();
    },
  );

  it('reports a missing unit the way Go does', () => {
    expect(() => parseDuration('30')).toThrow('time: missing unit in duration "30"');
    expect(() => parseDuration('5d')).toThrow('time: unknown unit "d" in duration "5d"');
    expect(() => parseDuration('30 seconds')).toThrow(
      'time: unknown unit " seconds" in duration "30 seconds"',
    );
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a unit named like a property of Object.prototype (%s) is unknown, not NaN',
    (unit) => {
      expect(() => parseDuration(`1${unit}`)).toThrow(`time: unknown unit "${unit}" in duration "1${unit}"`);
      expect(tryParseDuration(`1${unit}`)).toBeUndefined();
    },
  );

  it.each([
    [30_000, '30s'],
    [90_000, '1m30s'],
    [7_200_000, '2h0m0s'],
    [1500, '1.5s'],
    [250, '250ms'],
    [0.5, '500µs'],
    [0, '0s'],
    [-60_000, '-1m0s'],
    [3_723_004, '1h2m3.004s'],
  ])('formats %d ms as %s (Duration.String)', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBeCloseTo(ms, 6);
  });

  it('tryParseDuration ignores non-strings (a numeric requeue is not a duration)', () => {
    expect(tryParseDuration(30)).toBeUndefined();
    expect(tryParseDuration('30s')).toBe(30_000);
  });
});
