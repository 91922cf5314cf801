// Go's time layouts: Time.Format and time.Parse / ParseInLocation with Go's errors.
import { fail } from '../errors.js';
import { GoLocation, GoTime } from '../values.js';
import { civil, makeTime, offsetAt, unixSeconds, zoneOffsetByName } from './civil.js';
import { DAYS, goQuoteTime, MONTHS, NS, UTC } from './common.js';

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
    const t = makeTime(fields, UTC);
    const known = zoneOffsetByName(defaultLoc, zoneName, unixSeconds(t));
    if (known !== undefined) return new GoTime(t.unixNano - BigInt(known) * NS, defaultLoc);
    const offset = zoneName.startsWith('GMT') && zoneName.length > 3 ? Number(zoneName.slice(3)) * 3600 : 0;
    return new GoTime(t.unixNano - BigInt(offset) * NS, new GoLocation(zoneName, offset));
  }
  return makeTime(fields, defaultLoc);
}
