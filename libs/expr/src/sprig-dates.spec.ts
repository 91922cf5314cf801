import { describe, expect, it } from '@jest/globals';

import { marshal } from './go-json.js';
import { withClock } from './go-time.js';
import { goValue, META_ENV, runtimeError } from './spec-helpers.js';
import { formatValue } from './go-format.js';

/** 2026-11-24T10:00:00Z */
const FIXED_NOW = 1_795_514_400n * 1_000_000_000n;
const at = <T>(body: () => T): T => withClock(() => FIXED_NOW, body);

// Expected values from sprig v3.3.0 under expr v1.17.8 (the reference results, TZ=UTC).
describe('sprig date functions', () => {
  it.each<[string, string]>([
    ['sprig.htmlDate(date("2024-02-29T10:00:00Z"))', '"2024-02-29"'],
    ['sprig.htmlDate(nil)', '"2026-11-24"'],
    ['sprig.htmlDate(payload.f)', '"2026-11-24"'],
    ['sprig.htmlDate(sprig.int64(86400))', '"1970-01-02"'],
    ['sprig.htmlDateInZone(date("2024-02-29T23:00:00Z"), "Asia/Tokyo")', '"2024-03-01"'],
    ['sprig.htmlDateInZone(date("2024-02-29T23:00:00Z"), "Nowhere/City")', '"2024-02-29"'],
    ['sprig.date("15:04", date("2024-02-29T10:30:00Z"))', '"10:30"'],
    ['sprig.unixEpoch(date("2023-08-14"))', '"1691971200"'],
    ['sprig.unixEpoch(nil)', '"-62135596800"'],
    ['sprig.toDate("{\\"a\\":1}", "x")', '"0001-01-01T00:00:00Z"'],
    ['sprig.toDate("2006-01-02", "2024-02-29")', '"2024-02-29T00:00:00Z"'],
    ['sprig.dateModify("1h", date("2024-02-29T10:00:00Z"))', '"2024-02-29T11:00:00Z"'],
    ['sprig.dateModify("soon", date("2024-02-29T10:00:00Z"))', '"2024-02-29T10:00:00Z"'],
    ['sprig.duration("90")', '"1m30s"'],
    ['sprig.duration(1.5)', '"0s"'],
    // out of range: ParseInt's MaxInt64 seconds, which time.Duration's multiplication wraps
    ['sprig.duration("99999999999999999999")', '"-1s"'],
    ['sprig.now()', '"2026-11-24T10:00:00Z"'],
  ])('%s gives %s', (source, expected) => {
    expect(at(() => marshal(goValue(source, META_ENV)))).toBe(expected);
  });

  it('prints the zero time of a failed toDate as Go does', () => {
    expect(formatValue(goValue('sprig.toDate("", "x")', META_ENV))).toBe('0001-01-01 00:00:00 +0000 UTC');
  });

  it('fails where the must variants fail', () => {
    expect(runtimeError('sprig.mustToDate("2006-01-02", "x")', META_ENV).reason).toBe(
      'parsing time "x" as "2006-01-02": cannot parse "x" as "2006"',
    );
    expect(runtimeError('sprig.mustDateModify("soon", now())', META_ENV).reason).toBe(
      'time: invalid duration "soon"',
    );
  });
});
