// The part of sprig v3's GenericFuncMap that Argo exposes as `sprig` in metadata expressions.
// Functions are Go-typed: a wrong argument type is the runtime error `reflect: Call using ... as type ...`.
import { createHash } from 'node:crypto';

import { goRepeat, isGoSpace, mapCase, replace, split, title, trimCutset, trimSpace } from './go-strings.js';
import { fail, Fault } from './errors.js';
import { formatValue, goQuote } from './go-format.js';
import { marshal } from './go-json.js';
import { goFindAll, goQuoteMeta, goRegexpMatch, goReplaceAll, goSplit } from './regexp.js';
import { byteLength, fromUtf8Bytes, utf8Bytes } from './go-bytes.js';
import { parseDuration } from './go-time.js';
import { goPow } from './go-math.js';
import { SPRIG_SIGNATURES } from './sprig-signatures.js';
import { ANY, castFloat, castInt, fn, kindName, str, strval } from './sprig-kit.js';
import { COLLECTION_FUNCTIONS } from './sprig-collections.js';
import { toDelimitedCase, toPascalCase } from './sprig-case.js';
import { DATE_FUNCTIONS } from './sprig-dates.js';
import { TEXT_FUNCTIONS } from './sprig-text.js';
import { URL_FUNCTIONS } from './sprig-urls.js';
import { WORD_FUNCTIONS } from './sprig-words.js';
import { decodeBase64 } from './builtins/collections.js';
import { GoFunction, GoInt, goTypeName, nilSlice, tagged, toInt64 } from './values.js';
import { deepEqual as runtimeDeepEqual } from './runtime.js';
import type { ExprMap, ExprValue, GoType } from './values.js';

/** sprig's `empty`: nil, zero numbers, false, and empty strings, lists and maps. */
function isEmpty(v: ExprValue): boolean {
  if (v === null) return true;
  if (typeof v === 'string' || Array.isArray(v)) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  if (typeof v === 'bigint') return v === 0n;
  if (typeof v === 'number') return v === 0;
  if (typeof v === 'boolean') return !v;
  return false;
}

function strslice(v: ExprValue): string[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v.filter((s) => s !== null).map(strval);
  return [strval(v)];
}

/**
 * Go string slicing s[a:b] on bytes, with the runtime's panics (the high bound is checked first, a negative
 * bound is shown alone); sprig's substr and trunc rely on it.
 */
function sliceString(s: string, a: number, b: number): string {
  const bytes = utf8Bytes(s);
  const outOfRange = 'runtime error: slice bounds out of range';
  if (b < 0) fail(`${outOfRange} [:${b}]`);
  if (b > bytes.length) fail(`${outOfRange} [:${b}] with length ${bytes.length}`);
  if (a < 0) fail(`${outOfRange} [${a}:]`);
  if (a > b) fail(`${outOfRange} [${a}:${b}]`);
  return fromUtf8Bytes(bytes.slice(a, b));
}

const pairOfStrings = (name: string, impl: (a: string, b: string) => ExprValue, result: GoType = 'string') =>
  fn(name, ['string', 'string'], result, ([a, b]) => impl(a as string, b as string));
const arithmetic = (name: string, impl: (a: bigint, b: bigint) => bigint) =>
  fn(name, [ANY, ANY], 'int64', ([a, b]) => toInt64(impl(castInt(a!), castInt(b!))));
const hash = (algorithm: string) => (s: string) => createHash(algorithm).update(s, 'utf8').digest('hex');
const indent = (spaces: bigint, s: string): string => {
  const pad = goRepeat(' ', spaces);
  return pad + s.replace(/\n/g, `\n${pad}`);
};
const divide = (a: bigint, b: bigint): bigint => {
  if (b === 0n) fail('runtime error: integer divide by zero');
  return a / b;
};
const remainder = (a: bigint, b: bigint): bigint => {
  if (b === 0n) fail('runtime error: integer divide by zero');
  return a % b;
};
const extreme = (name: string, pick: (a: bigint, b: bigint) => boolean) =>
  fn(
    name,
    [ANY],
    'int64',
    ([first, ...rest]) => rest.map(castInt).reduce((m, v) => (pick(v, m) ? v : m), castInt(first!)),
    ANY,
  );

const floats = (name: string, pick: (a: number, b: number) => number) =>
  fn(
    name,
    [ANY],
    'float64',
    ([first, ...rest]) => rest.map(castFloat).reduce((a, b) => pick(a, b), castFloat(first!)),
    ANY,
  );

/** path.Clean. */
function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out.at(-1) !== '..') out.pop();
      else if (!rooted) out.push('..');
    } else out.push(part);
  }
  const joined = (rooted ? '/' : '') + out.join('/');
  return joined === '' ? '.' : joined;
}

function basePath(p: string): string {
  if (p === '') return '.';
  const trimmed = p.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

function dirPath(p: string): string {
  return cleanPath(p.slice(0, p.lastIndexOf('/') + 1));
}

function extPath(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

const NS_PER = { y: 31_536_000n, mo: 2_592_000n, d: 86_400n, h: 3600n, m: 60n, s: 1n };

/** sprig's durationRound: the largest whole unit of a duration (string or int64 nanoseconds). */
function durationRound(v: ExprValue): string {
  let d = 0n;
  if (typeof v === 'string') {
    try {
      d = parseDuration(v).value;
    } catch {
      d = 0n;
    }
  } else if (v instanceof GoInt && (v.type === 'int64' || v.type === 'time.Duration')) d = v.value;
  const u = d < 0n ? -d : d;
  for (const [unit, seconds] of Object.entries(NS_PER)) {
    const ns = seconds * 1_000_000_000n;
    if (u > ns) return `${u / ns}${unit}`;
  }
  return '0s';
}

/** Regexp.FindAllString: nil when nothing matches. */
function findAll(pattern: string, s: string, n: bigint): ExprValue {
  const found = goFindAll(pattern, s, Number(n)).map((m) => m.groups[0]!);
  return found.length === 0 ? nilSlice('[]string') : tagged(found, '[]string');
}

const EXTRA_FUNCTIONS: readonly GoFunction[] = [
  fn('typeOf', [ANY], 'string', ([v]) => (v === null ? '<nil>' : goTypeName(v!))),
  fn('typeIs', ['string', ANY], 'bool', ([t, v]) => t === (v === null ? '<nil>' : goTypeName(v!))),
  fn('kindOf', [ANY], 'string', ([v]) => kindName(v!)),
  fn('kindIs', ['string', ANY], 'bool', ([k, v]) => k === kindName(v!)),
  floats('maxf', Math.max),
  floats('minf', Math.min),
  str('base', basePath),
  str('dir', dirPath),
  str('clean', cleanPath),
  str('ext', extPath),
  // path/filepath on Linux: the same as package path
  str('osBase', basePath),
  str('osDir', dirPath),
  str('osClean', cleanPath),
  str('osExt', extPath),
  str('osIsAbs', (p) => p.startsWith('/'), 'bool'),
  fn('fail', ['string'], 'string', ([message]) => fail(message as string)),
  str('sha512sum', hash('sha512')),
  fn('durationRound', [ANY], 'string', ([v]) => durationRound(v!)),
  str('regexQuoteMeta', goQuoteMeta),
  pairOfStrings('regexFind', (re, s) => goFindAll(re, s, 1)[0]?.groups[0] ?? ''),
  fn('regexFindAll', ['string', 'string', 'int'], '[]string', ([re, s, n]) =>
    findAll(re as string, s as string, n as bigint),
  ),
  fn('mustRegexFindAll', ['string', 'string', 'int'], '[]string', ([re, s, n]) =>
    findAll(re as string, s as string, n as bigint),
  ),
  pairOfStrings('mustRegexMatch', (re, s) => goRegexpMatch(re, s), 'bool'),
  pairOfStrings('mustRegexFind', (re, s) => goFindAll(re, s, 1)[0]?.groups[0] ?? ''),
  fn('mustRegexReplaceAll', ['string', 'string', 'string'], 'string', ([re, s, r]) =>
    goReplaceAll(re as string, s as string, r as string, false),
  ),
  fn('mustRegexReplaceAllLiteral', ['string', 'string', 'string'], 'string', ([re, s, r]) =>
    goReplaceAll(re as string, s as string, r as string, true),
  ),
  fn('mustRegexSplit', ['string', 'string', 'int'], '[]string', ([re, s, n]) =>
    tagged(goSplit(re as string, s as string, Number(n as bigint)), '[]string'),
  ),
  fn('regexReplaceAll', ['string', 'string', 'string'], 'string', ([re, s, r]) =>
    goReplaceAll(re as string, s as string, r as string, false),
  ),
  fn('regexReplaceAllLiteral', ['string', 'string', 'string'], 'string', ([re, s, r]) =>
    goReplaceAll(re as string, s as string, r as string, true),
  ),
  fn('regexSplit', ['string', 'string', 'int'], '[]string', ([re, s, n]) =>
    tagged(goSplit(re as string, s as string, Number(n as bigint)), '[]string'),
  ),
];

const FUNCTIONS: readonly GoFunction[] = [
  fn('toString', [ANY], 'string', ([v]) => strval(v!)),
  fn('trunc', ['int', 'string'], 'string', ([c, s]) => {
    const n = Number(c as bigint);
    const length = byteLength(s as string);
    if (n < 0 && length + n > 0) return sliceString(s as string, length + n, length);
    if (n >= 0 && length > n) return sliceString(s as string, 0, n);
    return s!;
  }),
  str('lower', (s) => mapCase(s, false)),
  str('upper', (s) => mapCase(s, true)),
  str('trim', trimSpace),
  str('title', title),
  str('nospace', (s) =>
    Array.from(s)
      .filter((c) => !isGoSpace(c))
      .join(''),
  ),
  str('kebabcase', (s) => toDelimitedCase(s, '-')),
  str('snakecase', (s) => toDelimitedCase(s, '_')),
  // sprig v3.3.0 maps camelcase to xstrings.ToPascalCase
  str('camelcase', toPascalCase),
  str('b64enc', (s) => Buffer.from(utf8Bytes(s)).toString('base64')),
  str('b64dec', (s) => {
    try {
      return decodeBase64(s);
    } catch (e) {
      if (e instanceof Fault) return e.reason; // sprig returns the error text
      throw e;
    }
  }),
  str('sha256sum', hash('sha256')),
  str('sha1sum', hash('sha1')),
  str('atoi', (s) => (/^[+-]?\d+$/.test(s) ? castInt(s) : 0n), 'int'),
  fn('replace', ['string', 'string', 'string'], 'string', ([o, n, s]) =>
    replace(s as string, o as string, n as string, -1),
  ),
  pairOfStrings('contains', (sub, s) => s.includes(sub), 'bool'),
  pairOfStrings('hasPrefix', (p, s) => s.startsWith(p), 'bool'),
  pairOfStrings('hasSuffix', (p, s) => s.endsWith(p), 'bool'),
  pairOfStrings('trimPrefix', (p, s) => (s.startsWith(p) ? s.slice(p.length) : s)),
  pairOfStrings('trimSuffix', (p, s) => (p !== '' && s.endsWith(p) ? s.slice(0, -p.length) : s)),
  pairOfStrings('trimAll', (cutset, s) => trimCutset(s, cutset)),
  pairOfStrings('trimall', (cutset, s) => trimCutset(s, cutset)),
  pairOfStrings('splitList', (sep, s) => tagged(split(s, sep, -1, false), '[]string'), '[]string'),
  pairOfStrings(
    'regexMatch',
    (re, s) => {
      try {
        return goRegexpMatch(re, s);
      } catch (e) {
        if (e instanceof Fault) return false;
        throw e;
      }
    },
    'bool',
  ),
  fn('repeat', ['int', 'string'], 'string', ([n, s]) => goRepeat(s as string, n as bigint)),
  fn('substr', ['int', 'int', 'string'], 'string', ([a, b, s]) => {
    const [start, end, text] = [Number(a as bigint), Number(b as bigint), s as string];
    const length = byteLength(text);
    if (start < 0) return sliceString(text, 0, end);
    if (end < 0 || end > length) return sliceString(text, start, length);
    return sliceString(text, start, end);
  }),
  fn('indent', ['int', 'string'], 'string', ([n, s]) => indent(n as bigint, s as string)),
  fn('nindent', ['int', 'string'], 'string', ([n, s]) => `\n${indent(n as bigint, s as string)}`),
  fn(
    'default',
    [ANY],
    ANY,
    ([d, ...given]) => (given.length === 0 || isEmpty(given[0]!) ? d! : given[0]!),
    ANY,
  ),
  fn('empty', [ANY], 'bool', ([v]) => isEmpty(v!)),
  fn('coalesce', [], ANY, (values) => values.find((v) => !isEmpty(v)) ?? null, ANY),
  fn('ternary', [ANY, ANY, 'bool'], ANY, ([t, f, c]) => (c ? t! : f!)),
  fn(
    'quote',
    [],
    'string',
    (values) =>
      values
        .filter((v) => v !== null)
        .map((v) => goQuote(strval(v)))
        .join(' '),
    ANY,
  ),
  fn(
    'squote',
    [],
    'string',
    (values) =>
      values
        .filter((v) => v !== null)
        .map((v) => `'${strval(v)}'`)
        .join(' '),
    ANY,
  ),
  fn(
    'cat',
    [],
    'string',
    (values) =>
      values
        .filter((v) => v !== null)
        .map(formatValue)
        .join(' '),
    ANY,
  ),
  fn('join', ['string', ANY], 'string', ([sep, list]) => strslice(list!).join(sep as string)),
  fn('toStrings', [ANY], '[]string', ([list]) =>
    tagged(Array.isArray(list) ? list.map(strval) : strslice(list!), '[]string'),
  ),
  fn('list', [], '[]interface {}', (values) => values, ANY),
  fn('toJson', [ANY], 'string', ([v]) => safeMarshal(v!, {})),
  fn('toPrettyJson', [ANY], 'string', ([v]) => safeMarshal(v!, { indent: '  ' })),
  fn('toRawJson', [ANY], 'string', ([v]) => safeMarshal(v!, { escapeHTML: false })),
  fn('int', [ANY], 'int', ([v]) => castInt(v!)),
  fn('int64', [ANY], 'int64', ([v]) => castInt(v!)),
  fn('float64', [ANY], 'float64', ([v]) => castFloat(v!)),
  fn('add', [], 'int64', (values) => toInt64(values.reduce<bigint>((sum, v) => sum + castInt(v), 0n)), ANY),
  fn('add1', [ANY], 'int64', ([v]) => toInt64(castInt(v!) + 1n)),
  fn(
    'mul',
    [ANY],
    'int64',
    ([a, ...rest]) => toInt64(rest.reduce<bigint>((p, v) => p * castInt(v), castInt(a!))),
    ANY,
  ),
  arithmetic('sub', (a, b) => a - b),
  arithmetic('div', divide),
  arithmetic('mod', remainder),
  extreme('max', (v, m) => v > m),
  extreme('min', (v, m) => v < m),
  extreme('biggest', (v, m) => v > m),
  ...EXTRA_FUNCTIONS,
];

/** sprig functions Argo exposes that this emulator does not implement: calling one is a runtime error. */
const NOT_IMPLEMENTED = (
  'abbrev abbrevboth initials randAlphaNum randAlpha randAscii randNumeric shuffle untitle wrap wrapWith ' +
  'plural adler32sum seq toDecimal split splitn until untilStep randInt add1f addf subf divf mulf ceil ' +
  'floor round sortAlpha all any compact mustCompact fromJson mustFromJson mustToJson mustToPrettyJson ' +
  'mustToRawJson deepCopy mustDeepCopy typeIsLike deepEqual getHostByName isAbs osBase osClean osDir osExt ' +
  'osIsAbs b32enc b32dec tuple dict get set unset hasKey pluck keys pick omit merge mergeOverwrite ' +
  'mustMerge mustMergeOverwrite values append push mustAppend mustPush prepend mustPrepend first mustFirst ' +
  'rest mustRest last mustLast initial mustInitial reverse mustReverse uniq mustUniq without mustWithout ' +
  'has mustHas slice mustSlice concat dig chunk mustChunk bcrypt htpasswd genPrivateKey derivePassword ' +
  'buildCustomCert genCA genCAWithKey genSelfSignedCert genSelfSignedCertWithKey genSignedCert ' +
  'genSignedCertWithKey encryptAES decryptAES randBytes uuidv4 semver semverCompare fail ' +
  'urlParse ' +
  'urlJoin hello ago date date_in_zone date_modify dateInZone dateModify duration htmlDate htmlDateInZone ' +
  'must_date_modify mustDateModify mustToDate now toDate unixEpoch'
).split(' ');

/** reflect.TypeOf(v).Kind() as sprig's list functions switch on it; nil has no type and panics. */
function listItems(v: ExprValue, what: string): readonly ExprValue[] {
  if (v === null) fail('runtime error: invalid memory address or nil pointer dereference');
  if (Array.isArray(v)) return v;
  return fail(`Cannot ${what} on type ${kindName(v)}`);
}

interface Decimal {
  digits: bigint;
  exponent: number;
}

/** A float64 as shopspring's decimal.NewFromFloat holds it: the shortest decimal that reads back as it. */
function toDecimal(f: number): Decimal {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(f));
  if (!m) return fail(`Cannot create a Decimal from ${f}`);
  const fraction = m[3] ?? '';
  const digits = BigInt(`${m[1]}${m[2]}${fraction}`);
  return { digits, exponent: Number(m[4] ?? 0) - fraction.length };
}

/** shopspring's decimal DivRound to 16 places: the truncated quotient, rounded half away from zero. */
function decimalDivide(a: Decimal, b: Decimal): Decimal {
  if (b.digits === 0n) fail('decimal division by 0');
  const places = 16;
  const e = a.exponent - b.exponent + places;
  const [aa, bb] =
    e >= 0 ? [a.digits * 10n ** BigInt(e), b.digits] : [a.digits, b.digits * 10n ** BigInt(-e)];
  const q = aa / bb;
  const r = aa % bb;
  const abs = (x: bigint): bigint => (x < 0n ? -x : x);
  if (2n * abs(r) < abs(bb)) return { digits: q, exponent: -places };
  const negative = a.digits < 0n !== b.digits < 0n;
  return { digits: negative ? q - 1n : q + 1n, exponent: -places };
}

/** sprig's execDecimalOp: exact decimal +, - or ×, and ÷ to 16 places, of the cast floats; then the nearest float64. */
function decimalOp(operator: '+' | '-' | '*' | '/', first: ExprValue, rest: readonly ExprValue[]): number {
  let acc = toDecimal(castFloat(first));
  for (const x of rest) {
    const d = toDecimal(castFloat(x));
    if (operator === '*') acc = { digits: acc.digits * d.digits, exponent: acc.exponent + d.exponent };
    else if (operator === '/') acc = decimalDivide(acc, d);
    else {
      const e = Math.min(acc.exponent, d.exponent);
      const a = acc.digits * 10n ** BigInt(acc.exponent - e);
      const b = d.digits * 10n ** BigInt(d.exponent - e);
      acc = { digits: operator === '+' ? a + b : a - b, exponent: e };
    }
  }
  return Number(`${acc.digits}e${acc.exponent}`);
}

/** sprig's round: half (or `roundOn`) up in the fraction of value × 10^places, Go's math.Pow and Modf. */
function roundTo(value: ExprValue, places: bigint, roundOn: number): number {
  const pow = goPow(10, Number(places));
  const digit = pow * castFloat(value);
  const fraction = digit - Math.trunc(digit);
  return (fraction >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

/** sprig's seq: 1..n, a..b or a..c by step, both ends included, as space-separated text. */
function seq(params: readonly bigint[]): string {
  const text = (list: ExprValue[]): string => list.join(' ');
  if (params.length === 1) {
    const end = params[0]!;
    const increment = end < 1n ? -1n : 1n;
    return text(untilStep(1n, end + increment, increment));
  }
  if (params.length === 2) {
    const [start, end] = params as [bigint, bigint];
    const step = end < start ? -1n : 1n;
    return text(untilStep(start, end + step, step));
  }
  if (params.length === 3) {
    const [start, step, end] = params as [bigint, bigint, bigint];
    if (end < start && step > 0n) return '';
    return text(untilStep(start, end + (end < start ? -1n : 1n), step));
  }
  return '';
}

/** sprig's untilStep: [start, stop) by step; an empty list when the step goes the wrong way. */
function untilStep(start: bigint, stop: bigint, step: bigint): ExprValue[] {
  const out: bigint[] = [];
  if (stop < start) {
    if (step < 0n) for (let i = start; i > stop; i += step) out.push(i);
  } else if (step > 0n) for (let i = start; i < stop; i += step) out.push(i);
  return tagged(out, '[]int');
}

const sliceOf = (items: readonly ExprValue[]): ExprValue[] => [...items];
const deepEqual = (a: ExprValue, b: ExprValue): boolean => runtimeDeepEqual(a, b);

/** More of sprig v3.3.0's functions, after its source (dict.go, list.go, numeric.go, defaults.go). */
const LIST_AND_NUMBER_FUNCTIONS: readonly GoFunction[] = [
  fn('hello', [], 'string', () => 'Hello!'),
  fn('get', ['map[string]interface {}', 'string'], ANY, ([d, k]) =>
    d instanceof Map && d.has(k as string) ? d.get(k as string)! : '',
  ),
  fn(
    'hasKey',
    ['map[string]interface {}', 'string'],
    'bool',
    ([d, k]) => d instanceof Map && d.has(k as string),
  ),
  fn('all', [], 'bool', (values) => values.every((v) => !isEmpty(v)), ANY),
  fn('any', [], 'bool', (values) => values.some((v) => !isEmpty(v)), ANY),
  fn('floor', [ANY], 'float64', ([v]) => Math.floor(castFloat(v!))),
  fn('ceil', [ANY], 'float64', ([v]) => Math.ceil(castFloat(v!))),
  fn('until', ['int'], '[]int', ([n]) => untilStep(0n, n as bigint, (n as bigint) < 0n ? -1n : 1n)),
  fn('untilStep', ['int', 'int', 'int'], '[]int', ([a, b, c]) =>
    untilStep(a as bigint, b as bigint, c as bigint),
  ),
  fn('toDecimal', [ANY], 'int64', ([v]) => {
    const m = /^([+-]?)([0-7]+)$/.exec(strval(v!));
    const value = m ? (m[1] === '-' ? -1n : 1n) * BigInt(`0o${m[2]}`) : 0n;
    return new GoInt('int64', toInt64(value) === value ? value : 0n);
  }),
  fn('add1f', [ANY], 'float64', ([v]) => decimalOp('+', v!, [1n])),
  fn('addf', [], 'float64', (values) => decimalOp('+', 0, values), ANY),
  fn('subf', [ANY], 'float64', ([a, ...rest]) => decimalOp('-', a!, rest), ANY),
  fn('mulf', [ANY], 'float64', ([a, ...rest]) => decimalOp('*', a!, rest), ANY),
  fn('divf', [ANY], 'float64', ([a, ...rest]) => decimalOp('/', a!, rest), ANY),
  fn(
    'round',
    [ANY, 'int'],
    'float64',
    ([v, places, ...roundOn]) => roundTo(v!, places as bigint, (roundOn[0] as number | undefined) ?? 0.5),
    'float64',
  ),
  fn('seq', [], 'string', (params) => seq(params as bigint[]), 'int'),
  fn('tuple', [], '[]interface {}', (values) => values, ANY),
  fn('list', [], '[]interface {}', (values) => values, ANY),
  ...['first', 'mustFirst'].map((name) =>
    fn(name, [ANY], ANY, ([l]) => listItems(l!, 'find first')[0] ?? null),
  ),
  ...['last', 'mustLast'].map((name) =>
    fn(name, [ANY], ANY, ([l]) => listItems(l!, 'find last').at(-1) ?? null),
  ),
  ...['rest', 'mustRest'].map((name) =>
    fn(name, [ANY], '[]interface {}', ([l]) => {
      const items = listItems(l!, 'find rest');
      return items.length === 0 ? nilSlice() : sliceOf(items.slice(1));
    }),
  ),
  ...['initial', 'mustInitial'].map((name) =>
    fn(name, [ANY], '[]interface {}', ([l]) => {
      const items = listItems(l!, 'find initial');
      return items.length === 0 ? nilSlice() : sliceOf(items.slice(0, -1));
    }),
  ),
  ...['compact', 'mustCompact'].map((name) =>
    fn(name, [ANY], '[]interface {}', ([l]) => listItems(l!, 'compact').filter((v) => !isEmpty(v))),
  ),
  ...['uniq', 'mustUniq'].map((name) =>
    fn(name, [ANY], '[]interface {}', ([l]) => {
      const out: ExprValue[] = [];
      for (const v of listItems(l!, 'find uniq')) if (!out.some((o) => deepEqual(v, o))) out.push(v);
      return out;
    }),
  ),
  ...['without', 'mustWithout'].map((name) =>
    fn(
      name,
      [ANY],
      '[]interface {}',
      ([l, ...omit]) => listItems(l!, 'find without').filter((v) => !omit.some((o) => deepEqual(v, o))),
      ANY,
    ),
  ),
  ...['has', 'mustHas'].map((name) =>
    fn(name, [ANY, ANY], 'bool', ([needle, haystack]) =>
      haystack === null ? false : listItems(haystack!, 'find has').some((v) => deepEqual(needle!, v)),
    ),
  ),
  ...['append', 'push', 'mustAppend', 'mustPush'].map((name) =>
    fn(name, [ANY, ANY], '[]interface {}', ([l, v]) => [...listItems(l!, 'push on'), v!]),
  ),
  ...['prepend', 'mustPrepend'].map((name) =>
    fn(name, [ANY, ANY], '[]interface {}', ([l, v]) => [v!, ...listItems(l!, 'prepend on')]),
  ),
  fn('sortAlpha', [ANY], '[]string', ([l]) =>
    tagged(Array.isArray(l) ? strslice(l).sort(compareBytes) : [strval(l!)], '[]string'),
  ),
  fn('deepEqual', [ANY, ANY], 'bool', ([a, b]) => deepEqual(a!, b!)),
  fn('typeIsLike', ['string', ANY], 'bool', ([t, v]) => {
    const type = v === null ? '<nil>' : goTypeName(v!);
    return t === type || `*${t as string}` === type;
  }),
];

/** Go's string order: by bytes (UTF-8), which is code point order. */
function compareBytes(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function safeMarshal(value: ExprValue, options: { indent?: string; escapeHTML?: boolean }): string {
  try {
    return marshal(value, options);
  } catch (e) {
    if (e instanceof Fault) return '';
    throw e;
  }
}

/** Builds the `sprig` map (map[string]interface {}) of Go functions. */
export function sprigFunctions(): ExprMap {
  const map: ExprMap = new Map();
  const withSignature = (f: GoFunction): GoFunction =>
    new GoFunction(f.name, f.params, f.result, f.impl, f.variadic, SPRIG_SIGNATURES[f.name]);
  const functions = [
    ...FUNCTIONS,
    ...LIST_AND_NUMBER_FUNCTIONS,
    ...WORD_FUNCTIONS,
    ...COLLECTION_FUNCTIONS,
    ...TEXT_FUNCTIONS,
    ...DATE_FUNCTIONS,
    ...URL_FUNCTIONS,
  ];
  const implemented = new Set(functions.map((f) => f.name));
  for (const name of NOT_IMPLEMENTED.filter((n) => !implemented.has(n))) {
    const missing = fn(
      name,
      [],
      ANY,
      () => fail(`sprig.${name} is not supported by this expr emulator`),
      ANY,
    );
    map.set(name, withSignature(missing));
  }
  for (const f of functions) map.set(f.name, withSignature(f));
  return map;
}
