// The methods expressions call on time values, time arithmetic helpers, fmt's %v of time values and expr's date().
import { fail } from '../errors.js';
import { GoFunction, GoInt, GoLocation, GoTime, goTypeName } from '../values.js';
import type { ExprValue, GoType } from '../values.js';
import { civil, floorDiv, loadLocation, makeTime } from './civil.js';
import type { Civil } from './civil.js';
import { DAYS, duration, LOCAL, MONTHS, NS, UTC } from './common.js';
import { durationString } from './duration.js';
import { formatTime, parseTime, timeString } from './layout.js';

function method(
  name: string,
  params: GoType[],
  result: GoType,
  impl: (args: ExprValue[]) => ExprValue,
): GoFunction {
  return new GoFunction(name, params, result, impl);
}

const int = (n: number | bigint): bigint => BigInt(n);
const int64 = (n: bigint): GoInt => new GoInt('int64', BigInt.asIntN(64, n));

function divideFloat(d: bigint, unit: bigint): number {
  return Number(d / unit) + Number(d % unit) / Number(unit);
}

/** Duration.Round: halfway values round away from zero (saturating). */
function roundDuration(d: bigint, m: bigint): bigint {
  if (m <= 0n) return d;
  const max = 2n ** 63n - 1n;
  let r = d % m;
  if (d < 0n) {
    r = -r;
    if (r + r < m) return d + r;
    const d1 = d - m + r;
    return d1 < d ? d1 : -max - 1n;
  }
  if (r + r < m) return d - r;
  const d1 = d + m - r;
  return d1 > d && d1 <= max ? d1 : max;
}

function truncateDuration(d: bigint, m: bigint): bigint {
  return m <= 0n ? d : d - (d % m);
}

/** The year of Time.ISOWeek: the year of the Thursday of the date's Monday-to-Sunday week. */
function isoWeekYear(c: Civil): number {
  const mondayBased = (c.weekday + 6) % 7;
  const thursday = new Date(Date.UTC(c.year, c.month - 1, c.day - mondayBased + 3));
  return thursday.getUTCFullYear();
}

/** A method value of a time value (`date(x).Year`), or undefined when the type has no such method. */
export function timeMethod(receiver: ExprValue, name: string): GoFunction | undefined {
  if (receiver instanceof GoTime) {
    const t = receiver;
    const c = (): Civil => civil(t);
    switch (name) {
      case 'Year':
        return method(name, [], 'int', () => int(c().year));
      case 'Month':
        return method(name, [], 'interface {}', () => new GoInt('time.Month', int(c().month)));
      case 'Day':
        return method(name, [], 'int', () => int(c().day));
      case 'Hour':
        return method(name, [], 'int', () => int(c().hour));
      case 'Minute':
        return method(name, [], 'int', () => int(c().minute));
      case 'Second':
        return method(name, [], 'int', () => int(c().second));
      case 'Nanosecond':
        return method(name, [], 'int', () => int(c().nanosecond));
      case 'Weekday':
        return method(name, [], 'interface {}', () => new GoInt('time.Weekday', int(c().weekday)));
      case 'YearDay':
        return method(name, [], 'int', () => int(c().yearDay));
      case 'Unix':
        return method(name, [], 'int64', () => int64(floorDiv(t.unixNano, NS)));
      case 'UnixMilli':
        return method(name, [], 'int64', () => int64(floorDiv(t.unixNano, 1_000_000n)));
      case 'UnixNano':
        return method(name, [], 'int64', () => int64(t.unixNano));
      case 'Format':
        return method(name, ['string'], 'string', ([layout]) => formatTime(t, layout as string));
      case 'String':
        return method(name, [], 'string', () => timeString(t));
      case 'Add':
        return method(name, ['time.Duration'], 'time.Time', ([d]) => addDuration(t, (d as GoInt).value));
      case 'Sub':
        return method(name, ['time.Time'], 'time.Duration', ([u]) => subTimes(t, u as GoTime));
      case 'AddDate':
        return method(name, ['int', 'int', 'int'], 'time.Time', ([y, m, d]) =>
          addDate(t, y as bigint, m as bigint, d as bigint),
        );
      case 'Before':
        return method(name, ['time.Time'], 'bool', ([u]) => t.unixNano < (u as GoTime).unixNano);
      case 'After':
        return method(name, ['time.Time'], 'bool', ([u]) => t.unixNano > (u as GoTime).unixNano);
      case 'Equal':
        return method(name, ['time.Time'], 'bool', ([u]) => t.unixNano === (u as GoTime).unixNano);
      case 'Compare':
        return method(name, ['time.Time'], 'int', ([u]) => {
          const other = (u as GoTime).unixNano;
          return t.unixNano < other ? -1n : t.unixNano > other ? 1n : 0n;
        });
      case 'In':
        return method(
          name,
          ['*time.Location'],
          'time.Time',
          ([loc]) => new GoTime(t.unixNano, loc as GoLocation),
        );
      case 'UTC':
        return method(name, [], 'time.Time', () => new GoTime(t.unixNano, UTC));
      case 'Local':
        return method(name, [], 'time.Time', () => new GoTime(t.unixNano, LOCAL));
      case 'Location':
        return method(name, [], '*time.Location', () => t.location);
      // expr keeps the first of several results: ISOWeek's year, Zone's name
      case 'ISOWeek':
        return method(name, [], 'int', () => int(isoWeekYear(c())));
      case 'Zone':
        return method(name, [], 'string', () => c().zone);
      case 'IsZero':
        return method(name, [], 'bool', () => t.unixNano === ZERO_TIME_UNIX_NANO);
      case 'Truncate':
        return method(name, ['time.Duration'], 'time.Time', ([d]) => {
          const m = (d as GoInt).value;
          if (m <= 0n) return t;
          const sinceZero = t.unixNano - ZERO_TIME_UNIX_NANO;
          return new GoTime(t.unixNano - (((sinceZero % m) + m) % m), t.location);
        });
    }
    return undefined;
  }
  if (receiver instanceof GoInt && receiver.type === 'time.Duration') {
    const d = receiver.value;
    switch (name) {
      case 'Hours':
        return method(name, [], 'float64', () => divideFloat(d, 3600n * NS));
      case 'Minutes':
        return method(name, [], 'float64', () => divideFloat(d, 60n * NS));
      case 'Seconds':
        return method(name, [], 'float64', () => divideFloat(d, NS));
      case 'Milliseconds':
        return method(name, [], 'int64', () => int64(d / 1_000_000n));
      case 'Microseconds':
        return method(name, [], 'int64', () => int64(d / 1000n));
      case 'Nanoseconds':
        return method(name, [], 'int64', () => int64(d));
      case 'String':
        return method(name, [], 'string', () => durationString(d));
      case 'Abs':
        return method(name, [], 'time.Duration', () => duration(d < 0n ? -d : d));
      case 'Truncate':
        return method(name, ['time.Duration'], 'time.Duration', ([m]) =>
          duration(truncateDuration(d, (m as GoInt).value)),
        );
      case 'Round':
        return method(name, ['time.Duration'], 'time.Duration', ([m]) =>
          duration(roundDuration(d, (m as GoInt).value)),
        );
    }
    return undefined;
  }
  if (receiver instanceof GoInt && (receiver.type === 'time.Month' || receiver.type === 'time.Weekday')) {
    if (name === 'String') return method(name, [], 'string', () => namedIntString(receiver));
    return undefined;
  }
  if (receiver instanceof GoLocation && name === 'String') {
    return method(name, [], 'string', () => receiver.name);
  }
  return undefined;
}

/** January 1, year 1, 00:00:00 UTC: Go's zero Time. */
const ZERO_TIME_UNIX_NANO = -62135596800n * NS;

/** time.Month / time.Weekday String(). */
export function namedIntString(v: GoInt): string {
  const names = v.type === 'time.Month' ? MONTHS : DAYS;
  const index = Number(v.value) - (v.type === 'time.Month' ? 1 : 0);
  const name = names[index];
  if (name !== undefined) return name;
  return `%!${v.type === 'time.Month' ? 'Month' : 'Weekday'}(${v.value})`;
}

export function addDuration(t: GoTime, d: bigint): GoTime {
  return new GoTime(t.unixNano + d, t.location);
}

/** Time.Sub, saturating like Go's at the Duration bounds. */
export function subTimes(t: GoTime, u: GoTime): GoInt {
  const d = t.unixNano - u.unixNano;
  const max = 2n ** 63n - 1n;
  return duration(d > max ? max : d < -max - 1n ? -max - 1n : d);
}

function addDate(t: GoTime, years: bigint, months: bigint, days: bigint): GoTime {
  const c = civil(t);
  return makeTime(
    {
      year: c.year + Number(years),
      month: c.month + Number(months),
      day: c.day + Number(days),
      hour: c.hour,
      minute: c.minute,
      second: c.second,
      nanosecond: c.nanosecond,
    },
    t.location,
  );
}

/** fmt's %v of time values (their String methods). */
export function formatTimeValue(v: GoTime | GoLocation | GoInt): string {
  if (v instanceof GoTime) return timeString(v);
  if (v instanceof GoLocation) return v.name;
  if (v.type === 'time.Duration') return durationString(v.value);
  if (v.type === 'time.Month' || v.type === 'time.Weekday') return namedIntString(v);
  return v.value.toString();
}

/** expr's date(): a layout, a location, or the default layouts in order. */
export function exprDate(args: readonly ExprValue[]): GoTime {
  let rest = [...args];
  let loc: GoLocation | undefined;
  if (rest[0] instanceof GoLocation) {
    loc = rest[0];
    rest = rest.slice(1);
  }
  const text = asText(rest[0] ?? null);
  if (rest.length === 2) return parseTime(asText(rest[1]!), text, loc ?? UTC);
  if (rest.length === 3) return parseTime(asText(rest[1]!), text, loadLocation(asText(rest[2]!)));
  for (const layout of DATE_LAYOUTS) {
    try {
      return parseTime(layout, text, loc ?? UTC);
    } catch {
      // try the next layout
    }
  }
  return fail(`invalid date ${text}`);
}

const DATE_LAYOUTS = [
  '2006-01-02',
  '15:04:05',
  '2006-01-02 15:04:05',
  '2006-01-02T15:04:05Z07:00',
  '02 Jan 06 15:04 MST',
  'Monday, 02-Jan-06 15:04:05 MST',
  'Mon, 02 Jan 2006 15:04:05 MST',
];

function asText(v: ExprValue): string {
  if (typeof v === 'string') return v;
  return fail(`interface conversion: interface {} is ${v === null ? 'nil' : goTypeName(v)}, not string`);
}
