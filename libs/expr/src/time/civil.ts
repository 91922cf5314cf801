// Locations (UTC, fixed offsets, IANA zones through Intl) and civil time (fields of an instant in a zone).
import { fail } from '../errors.js';
import { GoLocation, GoTime } from '../values.js';
import { NS, SECONDS_PER_DAY, UTC, LOCAL } from './common.js';

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

/**
 * ICU names a zone's abbreviation only in the locales that use it (CEST in en-GB, IST in en-IN, EDT in
 * en-US), where Go reads the tz database's one: the first letters-only name among these locales is it.
 */
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-IN'];

const abbreviationFormats = new Map<string, Intl.DateTimeFormat>();

function abbreviationFormat(locale: string, zone: string): Intl.DateTimeFormat {
  const key = `${locale} ${zone}`;
  let format = abbreviationFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' });
    abbreviationFormats.set(key, format);
  }
  return format;
}

function zoneAbbreviation(loc: GoLocation, unixSeconds: number): string {
  if (loc.fixedOffset !== undefined) return loc.name === 'Local' ? 'UTC' : loc.name;
  for (const locale of ABBREVIATION_LOCALES) {
    const part = abbreviationFormat(locale, loc.name)
      .formatToParts(new Date(unixSeconds * 1000))
      .find((p) => p.type === 'timeZoneName')?.value;
    if (part && /^[A-Z]{3,5}$/.test(part)) return part;
  }
  return '';
}

/**
 * Location.lookupName for a zone abbreviation parsed with layout `MST` (`CET` in Europe/Berlin): the offset
 * the abbreviation has at that wall time, else any offset it has in the location; undefined if it has none.
 * The location's abbreviations are sampled in January and July of the surrounding years.
 */
export function zoneOffsetByName(loc: GoLocation, name: string, wallSeconds: number): number | undefined {
  if (loc.fixedOffset !== undefined) return undefined;
  const year = new Date(wallSeconds * 1000).getUTCFullYear();
  const candidates: number[] = [];
  for (let y = year - 2; y <= year + 2; y++)
    for (const month of [0, 6]) {
      const at = Date.UTC(y, month, 15) / 1000;
      if (zoneAbbreviation(loc, at) === name) candidates.push(offsetAt(loc, at));
    }
  for (const offset of candidates) {
    const at = wallSeconds - offset;
    if (zoneAbbreviation(loc, at) === name) return offsetAt(loc, at);
  }
  return candidates[0];
}

// ---- civil time ----

export interface Civil {
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

export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function unixSeconds(t: GoTime): number {
  return Number(floorDiv(t.unixNano, NS));
}

export function civil(t: GoTime): Civil {
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
