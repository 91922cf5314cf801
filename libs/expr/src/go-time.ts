// Go's time package as expr exposes it: time.Time, time.Duration, time.Month/Weekday and *time.Location, with
// Go's layouts (time.Parse, Format), ParseDuration, Duration.String and the methods expressions call.
import { fail } from './errors.js';
import { GoFunction, GoInt, GoLocation, GoTime, goTypeName } from './values.js';
import type { ExprValue, GoType } from './values.js';

const NS = 1_000_000_000n;
const SECONDS_PER_DAY = 86_400;

export const UTC = new GoLocation('UTC', 0);
/** Argo's server runs with TZ unset: Go's Local is UTC under the name "Local". */
export const LOCAL = new GoLocation('Local', 0);

const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);
const DAYS = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ');

export const duration = (ns: bigint): GoInt => new GoInt('time.Duration', BigInt.asIntN(64, ns));
export const isDuration = (v: ExprValue): v is GoInt => v instanceof GoInt && v.type === 'time.Duration';

// ---- locations ----

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(name: string): Intl.DateTimeFormat | undefined {
  let format = zoneFormats.get(name);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: name,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      return undefined;
    }
    zoneFormats.set(name, format);
  }
  return format;
}

/** time.LoadLocation: "" and "UTC" are UTC, "Local" is Local, anything else an IANA name. */
export function loadLocation(name: string): GoLocation {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return LOCAL;
  // Go reads the tz database by file name: case matters and aliases like "utc" do not exist.
  if (!/^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/.test(name) || !zoneFormat(name))
    fail(`unknown time zone ${name}`);
  return new GoLocation(name);
}

/** Seconds east of UTC at a Unix time. */
export function offsetAt(loc: GoLocation, unixSeconds: number): number {
  if (loc.fixedOffset !== undefined) return loc.fixedOffset;
  const parts = Object.fromEntries(
    zoneFormat(loc.name)!
      .formatToParts(new Date(unixSeconds * 1000))
      .map((p) => [p.type, p.value]),
  );
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  const local =
    Date.UTC(
      year,
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    ) / 1000;
  return local - unixSeconds;
}

function zoneAbbreviation(loc: GoLocation, unixSeconds: number): string {
  if (loc.fixedOffset !== undefined) return loc.name === 'Local' ? 'UTC' : loc.name;
  const part = new Intl.DateTimeFormat('en-US', { timeZone: loc.name, timeZoneName: 'short' })
    .formatToParts(new Date(unixSeconds * 1000))
    .find((p) => p.type === 'timeZoneName')?.value;
  return part && /^[A-Z]{3,5}$/.test(part) ? part : '';
}

// ---- civil time ----

interface Civil {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  weekday: number;
  yearDay: number;
  offset: number;
  zone: string;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function unixSeconds(t: GoTime): number {
  return Number(floorDiv(t.unixNano, NS));
}

function civil(t: GoTime): Civil {
  const sec = unixSeconds(t);
  const nanosecond = Number(t.unixNano - BigInt(sec) * NS);
  const offset = offsetAt(t.location, sec);
  const local = sec + offset;
  const days = Math.floor(local / SECONDS_PER_DAY);
  const secOfDay = local - days * SECONDS_PER_DAY;
  const date = new Date(days * SECONDS_PER_DAY * 1000);
  const year = date.getUTCFullYear();
  const yearStart = Date.UTC(year, 0, 1) / 1000 / SECONDS_PER_DAY;
  return {
    year,
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: Math.floor(secOfDay / 3600),
    minute: Math.floor((secOfDay % 3600) / 60),
    second: secOfDay % 60,
    nanosecond,
    weekday: (((days + 4) % 7) + 7) % 7,
    yearDay: days - yearStart + 1,
    offset,
    zone: zoneAbbreviation(t.location, sec),
  };
}

function utcSeconds(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime() / 1000;
}

/** time.Date in a location (the offset in effect at that wall time). */
export function makeTime(
  fields: Omit<Civil, 'weekday' | 'yearDay' | 'offset' | 'zone'>,
  loc: GoLocation,
): GoTime {
  const wall = utcSeconds(fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second);
  let sec = wall - offsetAt(loc, wall);
  sec = wall - offsetAt(loc, sec);
  return new GoTime(BigInt(sec) * NS + BigInt(fields.nanosecond), loc);
}

// ---- layouts ----

type Std = { kind: 'literal'; text: string } | { kind: 'std'; code: string; text: string; digits?: number };

const STD_CODES: readonly [string, string][] = [
  ['January', 'LongMonth'],
  ['Jan', 'Month'],
  ['Monday', 'LongWeekDay'],
  ['Mon', 'WeekDay'],
  ['MST', 'TZ'],
  ['2006', 'LongYear'],
  ['002', 'ZeroYearDay'],
  ['01', 'ZeroMonth'],
  ['02', 'ZeroDay'],
  ['03', 'ZeroHour12'],
  ['04', 'ZeroMinute'],
  ['05', 'ZeroSecond'],
  ['06', 'Year'],
  ['15', 'Hour'],
  ['1', 'NumMonth'],
  ['2', 'Day'],
  ['__2', 'UnderYearDay'],
  ['_2', 'UnderDay'],
  ['3', 'Hour12'],
  ['4', 'Minute'],
  ['5', 'Second'],
  ['PM', 'PM'],
  ['pm', 'pm'],
  ['-07:00:00', 'NumColonSecondsTZ'],
  ['-070000', 'NumSecondsTz'],
  ['-07:00', 'NumColonTZ'],
  ['-0700', 'NumTZ'],
  ['-07', 'NumShortTZ'],
  ['Z07:00:00', 'ISO8601ColonSecondsTZ'],
  ['Z070000', 'ISO8601SecondsTZ'],
  ['Z07:00', 'ISO8601ColonTZ'],
  ['Z0700', 'ISO8601TZ'],
  ['Z07', 'ISO8601ShortTZ'],
];

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Splits a layout like Go's nextStdChunk does. */
function chunks(layout: string): Std[] {
  const out: Std[] = [];
  let literal = '';
  let i = 0;
  outer: while (i < layout.length) {
    const rest = layout.slice(i);
    const c = rest[0]!;
    if ((c === '.' || c === ',') && (rest[1] === '0' || rest[1] === '9')) {
      let j = 1;
      while (rest[j] === rest[1]) j++;
      if (!isDigit(rest[j])) {
        if (literal) out.push({ kind: 'literal', text: literal });
        literal = '';
        out.push({
          kind: 'std',
          code: rest[1] === '0' ? 'Frac0' : 'Frac9',
          text: rest.slice(0, j),
          digits: j - 1,
        });
        i += j;
        continue;
      }
    }
    for (const [text, code] of STD_CODES) {
      if (!rest.startsWith(text)) continue;
      if (code === 'Month' && rest.startsWith('January')) continue;
      if (code === 'WeekDay' && rest.startsWith('Monday')) continue;
      // Go: "Jan"/"Mon" only when not followed by a lower-case letter ("Janet" is literal).
      if ((code === 'Month' || code === 'WeekDay') && /^[a-z]$/.test(rest[3] ?? '')) break;
      if (code === 'NumMonth' && rest.startsWith('15')) continue;
      if (code === 'Day' && rest.startsWith('2006')) continue;
      if (code === 'ZeroDay' && rest.startsWith('002')) continue;
      if (literal) out.push({ kind: 'literal', text: literal });
      literal = '';
      out.push({ kind: 'std', code, text });
      i += text.length;
      continue outer;
    }
    literal += c;
    i++;
  }
  if (literal) out.push({ kind: 'literal', text: literal });
  return out;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function zoneText(offset: number, std: string): string {
  if ((std.startsWith('ISO8601') || std === 'Z07') && offset === 0) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const h = pad(Math.floor(abs / 3600), 2);
  const m = pad(Math.floor((abs % 3600) / 60), 2);
  const s = pad(abs % 60, 2);
  if (std.endsWith('ShortTZ')) return sign + h;
  if (std.includes('ColonSeconds')) return `${sign}${h}:${m}:${s}`;
  if (std.includes('Seconds')) return `${sign}${h}${m}${s}`;
  if (std.includes('Colon')) return `${sign}${h}:${m}`;
  return `${sign}${h}${m}`;
}

/** Time.Format. */
export function formatTime(t: GoTime, layout: string): string {
  const c = civil(t);
  let out = '';
  for (const chunk of chunks(layout)) {
    if (chunk.kind === 'literal') {
      out += chunk.text;
      continue;
    }
    const hour12 = c.hour % 12 === 0 ? 12 : c.hour % 12;
    switch (chunk.code) {
      case 'LongMonth':
        out += MONTHS[c.month - 1];
        break;
      case 'Month':
        out += MONTHS[c.month - 1]!.slice(0, 3);
        break;
      case 'LongWeekDay':
        out += DAYS[c.weekday];
        break;
      case 'WeekDay':
        out += DAYS[c.weekday]!.slice(0, 3);
        break;
      case 'TZ':
        out += c.zone !== '' ? c.zone : zoneText(c.offset, 'NumTZ');
        break;
      case 'LongYear':
        out += c.year < 0 ? `-${pad(-c.year, 4)}` : pad(c.year, 4);
        break;
      case 'Year':
        out += pad(((c.year % 100) + 100) % 100, 2);
        break;
      case 'ZeroYearDay':
        out += pad(c.yearDay, 3);
        break;
      case 'UnderYearDay':
        out += String(c.yearDay).padStart(3, ' ');
        break;
      case 'ZeroMonth':
        out += pad(c.month, 2);
        break;
      case 'NumMonth':
        out += c.month;
        break;
      case 'ZeroDay':
        out += pad(c.day, 2);
        break;
      case 'Day':
        out += c.day;
        break;
      case 'UnderDay':
        out += String(c.day).padStart(2, ' ');
        break;
      case 'Hour':
        out += pad(c.hour, 2);
        break;
      case 'ZeroHour12':
        out += pad(hour12, 2);
        break;
      case 'Hour12':
        out += hour12;
        break;
      case 'ZeroMinute':
        out += pad(c.minute, 2);
        break;
      case 'Minute':
        out += c.minute;
        break;
      case 'ZeroSecond':
        out += pad(c.second, 2);
        break;
      case 'Second':
        out += c.second;
        break;
      case 'PM':
        out += c.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += c.hour >= 12 ? 'pm' : 'am';
        break;
      case 'Frac0':
      case 'Frac9': {
        let digits = pad(c.nanosecond, 9).slice(0, chunk.digits);
        if (chunk.code === 'Frac9') digits = digits.replace(/0+$/, '');
        if (digits !== '') out += chunk.text[0] + digits;
        break;
      }
      default:
        out += zoneText(c.offset, chunk.code);
    }
  }
  return out;
}

/** Time.String: `2006-01-02 15:04:05.999999999 -0700 MST`. */
export function timeString(t: GoTime): string {
  return formatTime(t, '2006-01-02 15:04:05.999999999 -0700 MST');
}

/** What json.Marshal writes for a time.Time (RFC 3339 with nanoseconds). */
export function timeJson(t: GoTime): string {
  return formatTime(t, '2006-01-02T15:04:05.999999999Z07:00');
}

function goQuoteTime(s: string): string {
  return `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

class ParseFailure {
  constructor(
    readonly valueElem: string,
    readonly layoutElem: string,
    readonly message = '',
  ) {}
}

/** Leading digits as Go's getnum: fixed = exactly two digits. */
function getnum(value: string, fixed: boolean): [number, string] {
  if (!isDigit(value[0])) throw new ParseFailure(value, '');
  if (!isDigit(value[1])) {
    if (fixed) throw new ParseFailure(value, '');
    return [Number(value[0]), value.slice(1)];
  }
  return [Number(value.slice(0, 2)), value.slice(2)];
}

function lookupName(names: readonly string[], value: string, short: boolean): [number, string] {
  for (const [i, name] of names.entries()) {
    const text = short ? name.slice(0, 3) : name;
    if (value.length >= text.length && value.slice(0, text.length).toLowerCase() === text.toLowerCase())
      return [i, value.slice(text.length)];
  }
  throw new ParseFailure(value, '');
}

function skipPrefix(value: string, prefix: string): string {
  let v = value;
  let p = prefix;
  while (p.length > 0) {
    if (p[0] === ' ') {
      if (v.length > 0 && v[0] !== ' ') throw new ParseFailure(v, prefix);
      p = p.replace(/^ +/, '');
      v = v.replace(/^ +/, '');
      continue;
    }
    if (v.length === 0 || v[0] !== p[0]) throw new ParseFailure(v, prefix);
    p = p.slice(1);
    v = v.slice(1);
  }
  return v;
}

const daysIn = (month: number, year: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** time.Parse (UTC default) / time.ParseInLocation. */
export function parseTime(layout: string, value: string, defaultLoc: GoLocation = UTC): GoTime {
  try {
    return parseChunks(layout, value, defaultLoc);
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    const head = `parsing time ${goQuoteTime(value)}`;
    if (e.message) return fail(head + e.message);
    return fail(
      `${head} as ${goQuoteTime(layout)}: cannot parse ${goQuoteTime(e.valueElem)} as ${goQuoteTime(e.layoutElem)}`,
    );
  }
}

function parseChunks(layout: string, input: string, defaultLoc: GoLocation): GoTime {
  let value = input;
  let year = 0;
  let month = -1;
  let day = -1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanosecond = 0;
  let pm = false;
  let am = false;
  let zoneOffset: number | undefined;
  let zoneName = '';
  let utc = false;
  const range = (what: string): never => {
    throw new ParseFailure('', '', `: ${what} out of range`);
  };
  const list = chunks(layout);
  for (const [index, chunk] of list.entries()) {
    if (chunk.kind === 'literal') {
      value = skipPrefix(value, chunk.text);
      continue;
    }
    const hold = value;
    try {
      switch (chunk.code) {
        case 'Year': {
          if (value.length < 2 || !isDigit(value[0]) || !isDigit(value[1])) throw new ParseFailure('', '');
          const y = Number(value.slice(0, 2));
          year = y >= 69 ? 1900 + y : 2000 + y;
          value = value.slice(2);
          break;
        }
        case 'LongYear':
          if (value.length < 4 || !/^\d{4}/.test(value)) throw new ParseFailure('', '');
          year = Number(value.slice(0, 4));
          value = value.slice(4);
          break;
        case 'Month':
        case 'LongMonth':
          [month, value] = lookupName(MONTHS, value, chunk.code === 'Month');
          month++;
          break;
        case 'NumMonth':
        case 'ZeroMonth':
          [month, value] = getnum(value, chunk.code === 'ZeroMonth');
          if (month <= 0 || month > 12) range('month');
          break;
        case 'WeekDay':
        case 'LongWeekDay':
          [, value] = lookupName(DAYS, value, chunk.code === 'WeekDay');
          break;
        case 'Day':
        case 'UnderDay':
        case 'ZeroDay':
          if (chunk.code === 'UnderDay' && value[0] === ' ') value = value.slice(1);
          [day, value] = getnum(value, chunk.code === 'ZeroDay');
          break;
        case 'Hour':
          [hour, value] = getnum(value, false);
          if (hour > 23) range('hour');
          break;
        case 'Hour12':
        case 'ZeroHour12':
          [hour, value] = getnum(value, chunk.code === 'ZeroHour12');
          if (hour > 12) range('hour');
          break;
        case 'Minute':
        case 'ZeroMinute':
          [minute, value] = getnum(value, chunk.code === 'ZeroMinute');
          if (minute > 59) range('minute');
          break;
        case 'Second':
        case 'ZeroSecond': {
          [second, value] = getnum(value, chunk.code === 'ZeroSecond');
          if (second > 59) range('second');
          const next = list[index + 1];
          const layoutHasFraction = next?.kind === 'std' && next.code.startsWith('Frac');
          if (!layoutHasFraction && /^[.,]\d/.test(value)) {
            const digits = /^[.,](\d+)/.exec(value)![1]!;
            nanosecond = Number(digits.slice(0, 9).padEnd(9, '0'));
            value = value.slice(1 + digits.length);
          }
          break;
        }
        case 'PM':
        case 'pm': {
          const p = value.slice(0, 2);
          const upper = chunk.code === 'PM' ? p : p.toUpperCase() === p ? '' : p.toUpperCase();
          if (upper === 'PM') pm = true;
          else if (upper === 'AM') am = true;
          else throw new ParseFailure('', '');
          value = value.slice(2);
          break;
        }
        case 'TZ': {
          if (value.startsWith('UTC')) {
            utc = true;
            value = value.slice(3);
            break;
          }
          const m = /^(GMT[+-]\d{1,2}|[A-Z]{3,5})/.exec(value);
          if (!m) throw new ParseFailure('', '');
          zoneName = m[1]!;
          value = value.slice(zoneName.length);
          break;
        }
        case 'Frac0': {
          const n = 1 + chunk.digits!;
          if (value.length < n || !/^[.,]/.test(value) || !/^\d+$/.test(value.slice(1, n)))
            throw new ParseFailure('', '');
          nanosecond = Number(value.slice(1, n).slice(0, 9).padEnd(9, '0'));
          value = value.slice(n);
          break;
        }
        case 'Frac9': {
          const m = /^[.,](\d+)/.exec(value);
          if (!m) break;
          nanosecond = Number(m[1]!.slice(0, 9).padEnd(9, '0'));
          value = value.slice(1 + m[1]!.length);
          break;
        }
        default: {
          // numeric and ISO 8601 zones
          if (chunk.code.startsWith('ISO8601') && value[0] === 'Z') {
            utc = true;
            value = value.slice(1);
            break;
          }
          let sign: string;
          let hh: string;
          let mm = '00';
          let ss = '00';
          if (chunk.code.endsWith('ColonTZ')) {
            if (value.length < 6 || value[3] !== ':') throw new ParseFailure('', '');
            [sign, hh, mm, value] = [value[0]!, value.slice(1, 3), value.slice(4, 6), value.slice(6)];
          } else if (chunk.code.endsWith('ShortTZ')) {
            if (value.length < 3) throw new ParseFailure('', '');
            [sign, hh, value] = [value[0]!, value.slice(1, 3), value.slice(3)];
          } else if (chunk.code.includes('ColonSeconds')) {
            if (value.length < 9 || value[3] !== ':' || value[6] !== ':') throw new ParseFailure('', '');
            [sign, hh, mm, ss, value] = [
              value[0]!,
              value.slice(1, 3),
              value.slice(4, 6),
              value.slice(7, 9),
              value.slice(9),
            ];
          } else if (chunk.code.includes('Seconds')) {
            if (value.length < 7) throw new ParseFailure('', '');
            [sign, hh, mm, ss, value] = [
              value[0]!,
              value.slice(1, 3),
              value.slice(3, 5),
              value.slice(5, 7),
              value.slice(7),
            ];
          } else {
            if (value.length < 5) throw new ParseFailure('', '');
            [sign, hh, mm, value] = [value[0]!, value.slice(1, 3), value.slice(3, 5), value.slice(5)];
          }
          if (![hh, mm, ss].every((d) => /^\d\d$/.test(d)) || (sign !== '+' && sign !== '-'))
            throw new ParseFailure('', '');
          if (Number(hh) > 24) range('time zone offset hour');
          if (Number(mm) > 60) range('time zone offset minute');
          if (Number(ss) > 60) range('time zone offset second');
          const offset = (Number(hh) * 60 + Number(mm)) * 60 + Number(ss);
          zoneOffset = sign === '-' ? -offset : offset;
        }
      }
    } catch (e) {
      if (e instanceof ParseFailure && !e.message) throw new ParseFailure(hold, chunk.text);
      throw e;
    }
  }
  if (value.length > 0) throw new ParseFailure('', '', `: extra text: ${goQuoteTime(value)}`);
  if (pm && hour < 12) hour += 12;
  else if (am && hour === 12) hour = 0;
  if (month < 0) month = 1;
  if (day < 0) day = 1;
  if (day < 1 || day > daysIn(month, year)) range('day');
  const fields = { year, month, day, hour, minute, second, nanosecond };
  if (utc) return makeTime(fields, UTC);
  if (zoneOffset !== undefined) {
    const t = makeTime(fields, UTC);
    const at = new GoTime(t.unixNano - BigInt(zoneOffset) * NS, UTC);
    if (offsetAt(defaultLoc, unixSeconds(at)) === zoneOffset) return new GoTime(at.unixNano, defaultLoc);
    return new GoTime(at.unixNano, new GoLocation('', zoneOffset));
  }
  if (zoneName !== '') {
    const offset = zoneName.startsWith('GMT') && zoneName.length > 3 ? Number(zoneName.slice(3)) * 3600 : 0;
    const t = makeTime(fields, UTC);
    return new GoTime(t.unixNano - BigInt(offset) * NS, new GoLocation(zoneName, offset));
  }
  return makeTime(fields, defaultLoc);
}

// ---- durations ----

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1_000_000n,
  s: NS,
  m: 60n * NS,
  h: 3600n * NS,
};

/** time.ParseDuration. */
export function parseDuration(text: string): GoInt {
  const invalid = (): never => fail(`time: invalid duration ${goQuoteTime(text)}`);
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return duration(0n);
  if (s === '') invalid();
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, intPart, fracPart] = [m[0], m[1]!, m[2]];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) invalid();
    s = s.slice(whole.length);
    const unitMatch = /^[^\d.]+/.exec(s);
    if (!unitMatch) fail(`time: missing unit in duration ${goQuoteTime(text)}`);
    const unitText = unitMatch[0];
    const unit = UNITS[unitText];
    if (unit === undefined)
      fail(`time: unknown unit ${goQuoteTime(unitText)} in duration ${goQuoteTime(text)}`);
    s = s.slice(unitText.length);
    let part = BigInt(intPart || '0') * unit;
    if (fracPart) {
      const scale = 10n ** BigInt(fracPart.length);
      part += (BigInt(fracPart) * unit) / scale;
    }
    total += part;
    if (total > 2n ** 63n) invalid();
  }
  if (!negative && total === 2n ** 63n) invalid();
  return duration(negative ? -total : total);
}

function fraction(v: bigint, digits: number): [string, bigint] {
  let text = '';
  let printed = false;
  let rest = v;
  for (let i = 0; i < digits; i++) {
    const digit = rest % 10n;
    printed ||= digit !== 0n;
    if (printed) text = `${digit}${text}`;
    rest /= 10n;
  }
  return [printed ? `.${text}` : '', rest];
}

/** Duration.String: `1h30m0s`, `1.5s`, `500ms`, `0s`. */
export function durationString(d: bigint): string {
  if (d === 0n) return '0s';
  const negative = d < 0n;
  let u = negative ? -d : d;
  let out: string;
  if (u < NS) {
    if (u < 1000n) out = `${u}ns`;
    else if (u < 1_000_000n) {
      const [frac, whole] = fraction(u, 3);
      out = `${whole}${frac}µs`;
    } else {
      const [frac, whole] = fraction(u, 6);
      out = `${whole}${frac}ms`;
    }
  } else {
    const [frac, secondsTotal] = fraction(u, 9);
    u = secondsTotal;
    out = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return negative ? `-${out}` : out;
}

// ---- methods ----

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
