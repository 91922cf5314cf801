// Go's time package as expr exposes it: time.Time, time.Duration, time.Month/Weekday and *time.Location, with
// Go's layouts (time.Parse, Format), ParseDuration, Duration.String and the methods expressions call.
export { duration, isDuration, LOCAL, nowUnixNano, UTC, withClock } from './time/common.js';
export { loadLocation, makeTime, offsetAt, unixSeconds } from './time/civil.js';
export { formatTime, parseTime, timeJson, timeString } from './time/layout.js';
export { durationString, parseDuration } from './time/duration.js';
export {
  addDuration,
  exprDate,
  formatTimeValue,
  namedIntString,
  subTimes,
  timeMethod,
} from './time/methods.js';
