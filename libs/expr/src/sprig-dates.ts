// sprig's date functions (date.go of v3.3.0). A value that is not a time or a Unix second count means "now".
import { fail, Fault } from './errors.js';
import {
  addDuration,
  durationString,
  formatTime,
  loadLocation,
  LOCAL,
  nowUnixNano,
  parseDuration,
  parseTime,
  UTC,
} from './go-time.js';
import { ANY, fn } from './sprig-kit.js';
import { GoInt, GoTime } from './values.js';
import type { ExprValue, GoFunction } from './values.js';

const NS = 1_000_000_000n;
const ZERO_TIME = new GoTime(-62_135_596_800n * NS, UTC);
const HTML_DATE = '2006-01-02';

/** dateInZone: the time (a time.Time, or int/int64 Unix seconds, else now) in `zone` (UTC if unknown). */
function dateInZone(layout: string, date: ExprValue, zone: string): string {
  let t: GoTime;
  if (date instanceof GoTime) t = date;
  else if (typeof date === 'bigint') t = new GoTime(date * NS, LOCAL);
  else if (date instanceof GoInt && date.type === 'int64') t = new GoTime(date.value * NS, LOCAL);
  else t = new GoTime(nowUnixNano(), LOCAL);
  let location;
  try {
    location = loadLocation(zone);
  } catch (e) {
    if (!(e instanceof Fault)) throw e;
    location = UTC;
  }
  return formatTime(new GoTime(t.unixNano, location), layout);
}

function parseOr(layout: string, value: string, fallback: (e: Fault) => GoTime): GoTime {
  try {
    return parseTime(layout, value, LOCAL);
  } catch (e) {
    if (!(e instanceof Fault)) throw e;
    return fallback(e);
  }
}

function modify(text: string, date: GoTime, fallback: (e: Fault) => GoTime): GoTime {
  let d: bigint;
  try {
    d = parseDuration(text).value;
  } catch (e) {
    if (!(e instanceof Fault)) throw e;
    return fallback(e);
  }
  return addDuration(date, d);
}

/** sprig's duration: seconds (a decimal string or an int64) as a time.Duration's text. */
function secondsText(v: ExprValue): string {
  let n = 0n;
  if (typeof v === 'string') {
    // strconv.ParseInt: 0 for bad syntax, the nearest int64 for a number out of range (the error is ignored)
    const max = 2n ** 63n - 1n;
    const parsed = /^[+-]?\d+$/.test(v) ? BigInt(v) : 0n;
    n = parsed > max ? max : parsed < -max - 1n ? -max - 1n : parsed;
  } else if (v instanceof GoInt && v.type === 'int64') n = v.value;
  return durationString(BigInt.asIntN(64, n * NS));
}

export const DATE_FUNCTIONS: readonly GoFunction[] = [
  fn('date', ['string', ANY], 'string', ([layout, d]) => dateInZone(layout as string, d!, 'Local')),
  fn('htmlDate', [ANY], 'string', ([d]) => dateInZone(HTML_DATE, d!, 'Local')),
  fn('htmlDateInZone', [ANY, 'string'], 'string', ([d, zone]) => dateInZone(HTML_DATE, d!, zone as string)),
  ...['dateInZone', 'date_in_zone'].map((name) =>
    fn(name, ['string', ANY, 'string'], 'string', ([layout, d, zone]) =>
      dateInZone(layout as string, d!, zone as string),
    ),
  ),
  fn('toDate', ['string', 'string'], 'time.Time', ([layout, s]) =>
    parseOr(layout as string, s as string, () => ZERO_TIME),
  ),
  fn('mustToDate', ['string', 'string'], 'time.Time', ([layout, s]) =>
    parseOr(layout as string, s as string, (e) => fail(e.reason)),
  ),
  fn('unixEpoch', ['time.Time'], 'string', ([t]) => {
    const ns = (t as GoTime).unixNano;
    return String(ns >= 0n ? ns / NS : -((-ns + NS - 1n) / NS));
  }),
  ...['dateModify', 'date_modify'].map((name) =>
    fn(name, ['string', 'time.Time'], 'time.Time', ([text, t]) =>
      modify(text as string, t as GoTime, () => t as GoTime),
    ),
  ),
  ...['mustDateModify', 'must_date_modify'].map((name) =>
    fn(name, ['string', 'time.Time'], 'time.Time', ([text, t]) =>
      modify(text as string, t as GoTime, (e) => fail(e.reason)),
    ),
  ),
  fn('duration', [ANY], 'string', ([v]) => secondsText(v!)),
  fn('now', [], 'time.Time', () => new GoTime(nowUnixNano(), LOCAL)),
];
