import { describe, expect, it } from '@jest/globals';

import { goFormat, goTypeOf, toParameterValue } from './index.js';
import { compileError, goValue, runtimeError } from './spec-helpers.js';

describe('time builtins (Go time package semantics)', () => {
  it.each<[string, string, string]>([
    ['date("2023-08-14T10:00:00Z") + duration("1h")', 'time.Time', '2023-08-14 11:00:00 +0000 UTC'],
    ['date("2023-08-14T10:00:00+02:00")', 'time.Time', '2023-08-14 10:00:00 +0200 +0200'],
    ['date("2023-08-14", "2006-01-02").Day()', 'int', '14'],
    ['date("14/08/2023 3:04PM", "02/01/2006 3:04PM").Hour()', 'int', '15'],
    ['date("2023-08-14").Month()', 'time.Month', 'August'],
    ['date("2023-08-14").Weekday()', 'time.Weekday', 'Monday'],
    ['date("2023-08-14").Format("Mon, 02 Jan 2006")', 'string', 'Mon, 14 Aug 2023'],
    ['date("2023-08-14").Unix()', 'int64', '1691971200'],
    [
      'date("2023-08-14", "2006-01-02", "America/New_York").Format(time_layout)',
      'string',
      '2023-08-14 00:00:00 -0400 EDT',
    ],
    ['(date("2024-01-01") - date("2023-01-01")).Hours()', 'float64', '8760'],
    ['date("2023-08-14") < date("2024-01-01")', 'bool', 'true'],
    ['duration("1h30m")', 'time.Duration', '1h30m0s'],
    ['duration("90s") + duration("500ms")', 'time.Duration', '1m30.5s'],
    ['duration("1.5us")', 'time.Duration', '1.5µs'],
    ['duration("-2h") * 2', 'time.Duration', '-4h0m0s'],
    ['duration("1h") > duration("30m")', 'bool', 'true'],
    ['timezone("Europe/Paris").String()', 'string', 'Europe/Paris'],
    ['type(date("2023-08-14"))', 'string', 'time.Time'],
    // runtime.Multiply: a float64 and a Duration give float64 nanoseconds
    ['0.5 * duration("300ms")', 'float64', '1.5e+08'],
    ['duration("1h") * 1.5', 'float64', '5.4e+12'],
    // expr keeps the first result of a multi-result method
    ['date("2024-12-30").ISOWeek()', 'int', '2025'],
    ['date("2023-01-01").ISOWeek()', 'int', '2022'],
    ['date("2023-08-14", "2006-01-02", "Europe/Berlin").Zone()', 'string', 'CEST'],
    // zone abbreviations as the tz database has them, and a parsed one read in the layout's location
    ['date("2023-08-14", "2006-01-02", "Asia/Kolkata").String()', 'string', '2023-08-14 00:00:00 +0530 IST'],
    [
      'date("14 Aug 23 11:00 CET", "02 Jan 06 15:04 MST", "Europe/Berlin")',
      'time.Time',
      '2023-08-14 12:00:00 +0200 CEST',
    ],
    [
      'date("14 Aug 23 11:00 CET", "02 Jan 06 15:04 MST", "Europe/Berlin").UTC()',
      'time.Time',
      '2023-08-14 10:00:00 +0000 UTC',
    ],
  ])('%s → %s %s', (source, type, text) => {
    const env = { time_layout: '2006-01-02 15:04:05 -0700 MST' };
    const value = goValue(source, env);
    expect(goTypeOf(value)).toBe(type);
    expect(goFormat(value)).toBe(text);
  });

  it('marshals times as RFC 3339 and durations as nanoseconds', () => {
    expect(toParameterValue(goValue('date("2023-08-14T10:00:00.5Z")'))).toBe('2023-08-14T10:00:00.5Z');
    expect(toParameterValue(goValue('duration("1h30m")'))).toBe('5400000000000');
  });

  it.each<[string, string]>([
    ['duration("bad")', 'time: invalid duration "bad"'],
    ['duration("1")', 'time: missing unit in duration "1"'],
    ['duration("1x")', 'time: unknown unit "x" in duration "1x"'],
    ['duration("1constructor")', 'time: unknown unit "constructor" in duration "1constructor"'],
    ['duration("1toString")', 'time: unknown unit "toString" in duration "1toString"'],
    ['date("not a date")', 'invalid date not a date'],
    ['date("2023-02-30", "2006-01-02")', 'parsing time "2023-02-30": day out of range'],
    [
      'date("2023-8-14", "2006-01-02")',
      'parsing time "2023-8-14" as "2006-01-02": cannot parse "8-14" as "01"',
    ],
    ['timezone("Mars/Olympus")', 'unknown time zone Mars/Olympus'],
  ])('%s fails: %s', (source, reason) => {
    expect(runtimeError(source).reason).toBe(reason);
  });
});

describe('time values are typed at compile time, as expr types them', () => {
  it.each<[string, string]>([
    ['duration("1h") / 2', 'invalid operation: / (mismatched types time.Duration and int)'],
    ['date("2023-08-14") == "x"', 'invalid operation: == (mismatched types time.Time and string)'],
    ['date("2023-08-14").Add(1, 2)', 'too many arguments to call Add'],
    [
      'date("2023-08-14").Sub(duration("1h"))',
      'cannot use time.Duration as argument (type time.Time) to call Sub ',
    ],
  ])('%s → %s', (source, reason) => {
    expect(compileError(source).reason).toBe(reason);
  });

  it('looks a field name up in a time.Time with `in`, as runtime.In does for structs', () => {
    expect(goValue('"wall" in date("2023-08-14")')).toBe(true);
    expect(goValue('"Year" in date("2023-08-14")')).toBe(false);
    expect(runtimeError('payload.missing in date("2023-08-14")').reason).toBe(
      'cannot use <nil> as field name of time.Time',
    );
    expect(compileError('1 in date("2023-08-14")').reason).toBe(
      'invalid operation: in (mismatched types int and time.Time)',
    );
  });

  it('lets a number scale a duration and rounds durations like Go', () => {
    expect(goFormat(goValue('duration("1h") * 2'))).toBe('2h0m0s');
    expect(goFormat(goValue('duration("1h15m30s").Round(duration("1h"))'))).toBe('1h0m0s');
  });
});
