import { fail } from '../errors.js';
import { arrayOf, BOOL, INT, STRING } from '../natures.js';
import { asString, growMemory, toInt } from '../runtime.js';
import { byteLength } from '../go-bytes.js';
import { goTypeName, nilSlice, tagged } from '../values.js';
import type { ExprValue } from '../values.js';
import { mapCase, replace, byteIndex, split, trimCutset, trimSpace } from '../go-strings.js';
import { overloads } from './signatures.js';
import type { Builtin } from './signatures.js';

const STRINGS = arrayOf(STRING, '[]string');
const s = asString;

function splitBuiltin(name: string, keepSeparator: boolean): Builtin {
  return {
    check: overloads(name, [['string', 'string'], STRINGS], [['string', 'string', 'int'], STRINGS]),
    call: (args) => {
      const [text, separator] = [s(args[0]!), s(args[1]!)];
      const n = args.length === 3 ? toInt(args[2]!) : -1;
      if (n === 0) return nilSlice('[]string'); // strings.SplitN(s, sep, 0) is nil
      return tagged(split(text, separator, n, keepSeparator), '[]string');
    },
  };
}

function trimAffix(name: string, cut: (value: string, affix: string) => string): Builtin {
  return {
    check: overloads(name, [['string', 'string'], STRING], [['string'], STRING]),
    call: (args) => cut(s(args[0]!), args.length === 2 ? s(args[1]!) : ' '),
  };
}

export const STRING_BUILTINS: Readonly<Record<string, Builtin>> = {
  trim: {
    check: overloads('trim', [['string'], STRING], [['string', 'string'], STRING]),
    call: (args) => (args.length === 1 ? trimSpace(s(args[0]!)) : trimCutset(s(args[0]!), s(args[1]!))),
  },
  trimPrefix: trimAffix('trimPrefix', (v, p) => (v.startsWith(p) ? v.slice(p.length) : v)),
  trimSuffix: trimAffix('trimSuffix', (v, p) => (p !== '' && v.endsWith(p) ? v.slice(0, -p.length) : v)),
  upper: { check: overloads('upper', [['string'], STRING]), call: (args) => mapCase(s(args[0]!), true) },
  lower: { check: overloads('lower', [['string'], STRING]), call: (args) => mapCase(s(args[0]!), false) },
  split: splitBuiltin('split', false),
  splitAfter: splitBuiltin('splitAfter', true),
  replace: {
    check: overloads(
      'replace',
      [['string', 'string', 'string', 'int'], STRING],
      [['string', 'string', 'string'], STRING],
    ),
    call: (args) => replace(s(args[0]!), s(args[1]!), s(args[2]!), args.length === 4 ? toInt(args[3]!) : -1),
  },
  repeat: {
    check: overloads('repeat', [['string', 'int'], STRING]),
    call: (args) => {
      const n = toInt(args[1]!);
      if (n < 0) fail(`invalid argument for repeat (expected positive integer, got ${n})`);
      if (n > 1e6) fail('memory budget exceeded');
      const text = s(args[0]!);
      growMemory(byteLength(text) * n);
      return text.repeat(n);
    },
  },
  join: {
    check: overloads(
      'join',
      [['[]interface {}', 'string'], STRING],
      [['[]interface {}'], STRING],
      [['[]string', 'string'], STRING],
      [['[]string'], STRING],
    ),
    call: (args) => {
      const glue = args.length === 2 ? s(args[1]!) : '';
      const list = args[0]!;
      const type = list === null ? '<nil>' : goTypeName(list);
      if (!Array.isArray(list) || (type !== '[]string' && type !== '[]interface {}'))
        return fail(`invalid argument for join (type ${type})`);
      return list.map((item: ExprValue) => s(item)).join(glue);
    },
  },
  indexOf: {
    check: overloads('indexOf', [['string', 'string'], INT]),
    call: (args) => BigInt(byteIndex(s(args[0]!), s(args[1]!), false)),
  },
  lastIndexOf: {
    check: overloads('lastIndexOf', [['string', 'string'], INT]),
    call: (args) => BigInt(byteIndex(s(args[0]!), s(args[1]!), true)),
  },
  hasPrefix: {
    check: overloads('hasPrefix', [['string', 'string'], BOOL]),
    call: (args) => s(args[0]!).startsWith(s(args[1]!)),
  },
  hasSuffix: {
    check: overloads('hasSuffix', [['string', 'string'], BOOL]),
    call: (args) => s(args[0]!).endsWith(s(args[1]!)),
  },
};
