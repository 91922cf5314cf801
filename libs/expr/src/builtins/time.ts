// expr's time builtins: now(), date(), duration(), timezone().
import { fail } from '../errors.js';
import { exprDate, loadLocation, LOCAL, nowUnixNano, parseDuration } from '../go-time.js';
import { DURATION, LOCATION, TIME } from '../natures.js';
import { asString } from '../runtime.js';
import { GoLocation, GoTime } from '../values.js';
import { overloads } from './signatures.js';
import type { Builtin } from './signatures.js';

export const TIME_BUILTINS: Readonly<Record<string, Builtin>> = {
  now: {
    check: (args) => {
      if (args.length === 0 || (args.length === 1 && args[0]!.kind === 'location')) return TIME;
      return fail(`invalid number of arguments (expected 0, got ${args.length})`);
    },
    call: (args) => {
      const now = new GoTime(nowUnixNano(), LOCAL);
      if (args.length === 0) return now;
      const [loc] = args;
      if (args.length === 1 && loc instanceof GoLocation) return new GoTime(now.unixNano, loc);
      return fail(`invalid number of arguments (expected 0, got ${args.length})`);
    },
  },
  date: {
    check: (args) => {
      if (args.length < 1) fail(`invalid number of arguments (expected at least 1, got ${args.length})`);
      if (args.length > 4 || (args.length === 4 && args[0]!.kind !== 'location'))
        fail(`invalid number of arguments (expected at most 3, got ${args.length})`);
      return TIME;
    },
    call: (args) => exprDate(args),
  },
  duration: {
    check: overloads('duration', [['string'], DURATION]),
    call: ([text]) => parseDuration(asString(text ?? null)),
  },
  timezone: {
    check: overloads('timezone', [['string'], LOCATION]),
    call: ([name]) => loadLocation(asString(name ?? null)),
  },
};
