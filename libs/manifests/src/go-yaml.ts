/**
 * YAML as sigs.k8s.io/yaml.Marshal writes it (JSON → go-yaml v2): map keys sorted in go-yaml's natural
 * order, sequences not indented under their key, strings plain when possible, double-quoted when they would
 * read as another type, single-quoted when plain is not allowed, literal blocks for multi-line text, and
 * plain/single-quoted scalars folded at spaces past column 80.
 */
const BEST_WIDTH = 80;

/** go-yaml v2 keyList.Less for string keys: letters compare by rune, digit runs numerically, others first. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  const isLetter = (c: string) => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

const sortKeys = (keys: string[]) =>
  [...keys].sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0));

/** Whether go-yaml v2's resolver would read `s` as something other than a string (so it must be quoted). */
function resolvesToNonString(s: string): boolean {
  if (s === '' || s === '~' || /^(null|Null|NULL)$/.test(s)) return true;
  if (/^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/.test(s))
    return true;
  if (/^[-+]?(\.inf|\.Inf|\.INF)$/.test(s) || /^(\.nan|\.NaN|\.NAN)$/.test(s)) return true;
  if (
    /^[-+]?(0|[1-9][0-9_]*)$/.test(s) ||
    /^[-+]?0b[01_]+$/.test(s) ||
    /^[-+]?0[0-7_]+$/.test(s) ||
    /^[-+]?0x[0-9a-fA-F_]+$/.test(s)
  )
    return true;
  if (/^[-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+]?[0-9]+)?$/.test(s) && /[0-9]/.test(s)) return true;
  if (/^[-+]?[0-9][0-9_]*([eE][-+]?[0-9]+)$/.test(s)) return true;
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(s)) return true; // base-60
  if (/^\d{4}-\d{1,2}-\d{1,2}([Tt ]|$)/.test(s)) return true; // timestamps
  return false;
}

interface Analysis {
  blockPlain: boolean;
  single: boolean;
  block: boolean;
  multiline: boolean;
}

const isPrintable = (c: string): boolean => {
  const code = c.codePointAt(0)!;
  return (
    code === 0x0a ||
    (code >= 0x20 && code <= 0x7e) ||
    code === 0x85 ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd && code !== 0xfeff) ||
    code >= 0x10000
  );
};

/** libyaml's yaml_emitter_analyze_scalar, for block context. */
function analyze(value: string): Analysis {
  if (value === '') return { blockPlain: false, single: true, block: false, multiline: false };
  const chars = [...value];
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) blockIndicators = true;
  let precededByWhitespace = true;
  chars.forEach((c, i) => {
    const next = chars[i + 1];
    const followedByWhitespace =
      next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r';
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      if ((c === '?' || c === ':') && followedByWhitespace) blockIndicators = true;
      if (c === '-' && followedByWhitespace) blockIndicators = true;
    } else {
      if (c === ':' && followedByWhitespace) blockIndicators = true;
      if (c === '#' && precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (c === '\n') lineBreaks = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (c === '\n') {
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === ' ' || c === '\t' || c === '\n' || c === '\r';
  });
  let blockPlain = true;
  let single = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) block = false;
  if (breakSpace) blockPlain = single = false;
  if (spaceBreak || special) blockPlain = single = block = false;
  if (lineBreaks) blockPlain = false;
  if (blockIndicators) blockPlain = false;
  return { blockPlain, single, block, multiline: lineBreaks };
}

type Style = 'plain' | 'single' | 'double' | 'literal';

function styleOf(value: string, simpleKey: boolean): Style {
  const a = analyze(value);
  let style: Style = value.includes('\n') ? 'literal' : resolvesToNonString(value) ? 'double' : 'plain';
  if (style === 'plain' && (!a.blockPlain || (value === '' && simpleKey))) style = 'single';
  if (style === 'single' && !a.single) style = 'double';
  if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
  return style;
}

function doubleQuoted(value: string): string {
  let out = '"';
  for (const c of value) {
    const code = c.codePointAt(0)!;
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (c === '\0') out += '\\0';
    else if (!isPrintable(c))
      out +=
        code <= 0xff
          ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
          : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

/** Writes `text` from `column`, breaking at a space once past BEST_WIDTH (libyaml's plain/single writer). */
function folded(text: string, column: number, indent: number): string {
  let out = '';
  let col = column;
  const chars = [...text];
  let previousSpace = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === ' ') {
      if (!previousSpace && col > BEST_WIDTH && chars[i + 1] !== ' ' && i !== 0 && i !== chars.length - 1) {
        out += `\n${' '.repeat(indent)}`;
        col = indent;
      } else {
        out += c;
        col++;
      }
      previousSpace = true;
    } else {
      out += c;
      col++;
      previousSpace = false;
    }
  }
  return out;
}

function scalarText(
  value: string,
  column: number,
  indent: number,
  simpleKey = false,
): { text: string; literal: boolean } {
  const style = styleOf(value, simpleKey);
  switch (style) {
    case 'plain':
      return { text: simpleKey ? value : folded(value, column, indent), literal: false };
    case 'single': {
      const escaped = value.replace(/'/g, "''");
      return { text: `'${simpleKey ? escaped : folded(escaped, column + 1, indent)}'`, literal: false };
    }
    case 'double':
      return { text: doubleQuoted(value), literal: false };
    case 'literal': {
      const trailing = /\n+$/.exec(value)?.[0].length ?? 0;
      const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
      const hint = value.startsWith(' ') || value.startsWith('\n') ? '2' : '';
      const body = (trailing > 0 ? value.slice(0, value.length - 1) : value)
        .split('\n')
        .map((line) => (line === '' ? '' : `${' '.repeat(indent)}${line}`))
        .join('\n');
      return { text: `|${hint}${chomp}\n${body}`, literal: true };
    }
  }
}

function scalar(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return String(value);
    if (!Number.isFinite(value)) return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
    return formatGoFloat(value);
  }
  return undefined;
}

/** strconv.FormatFloat(f, 'g', -1, 64) */
function formatGoFloat(f: number): string {
  const exp = Math.floor(Math.log10(Math.abs(f)));
  if (exp < -4 || exp >= 21) {
    const [m, e] = f.toExponential().split('e');
    const n = Number(e);
    return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  return String(f);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function emit(value: unknown, indent: number, out: string[]): void {
  // `value` is a map or list written as a block at `indent`.
  if (Array.isArray(value)) {
    for (const item of value) {
      const prefix = `${' '.repeat(indent)}- `;
      writeValue(prefix, item, indent + 2, out, true);
    }
    return;
  }
  for (const key of sortKeys(Object.keys(value as object))) {
    const k = scalarText(key, indent, indent + 2, true).text;
    writeValue(`${' '.repeat(indent)}${k}:`, (value as Record<string, unknown>)[key], indent, out, false);
  }
}

/** Writes `head` followed by `value`; `childIndent` is where nested block content goes. */
function writeValue(head: string, value: unknown, indent: number, out: string[], inSequence: boolean): void {
  const s = scalar(value);
  if (s !== undefined) {
    out.push(`${head}${inSequence ? '' : ' '}${s}`);
    return;
  }
  if (typeof value === 'string') {
    const column = head.length + (inSequence ? 0 : 1);
    const childIndent = inSequence ? indent : indent + 2;
    const { text } = scalarText(value, column, childIndent);
    out.push(`${head}${inSequence ? '' : ' '}${text}`);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push(`${head}${inSequence ? '' : ' '}[]`);
    if (inSequence) {
      // `- - a`: the nested sequence starts on the dash line.
      const lines: string[] = [];
      emit(value, indent, lines);
      out.push(head + lines[0].trimStart(), ...lines.slice(1));
    } else {
      out.push(head);
      emit(value, indent, out);
    }
    return;
  }
  if (isMap(value)) {
    if (Object.keys(value).length === 0) return void out.push(`${head}${inSequence ? '' : ' '}{}`);
    if (inSequence) {
      const lines: string[] = [];
      emit(value, indent, lines);
      out.push(head + lines[0].trimStart(), ...lines.slice(1));
    } else {
      out.push(head);
      emit(value, indent + 2, out);
    }
    return;
  }
  throw new TypeError(`cannot marshal ${typeof value} to YAML`);
}

/** The document go-yaml v2 (via sigs.k8s.io/yaml) would write for a JSON-compatible value. */
export function marshalGoYaml(value: unknown): string {
  const s = scalar(value);
  if (s !== undefined) return `${s}\n`;
  if (typeof value === 'string') return `${scalarText(value, 0, 2).text}\n`;
  if (Array.isArray(value) && value.length === 0) return '[]\n';
  if (isMap(value) && Object.keys(value).length === 0) return '{}\n';
  const out: string[] = [];
  emit(value, 0, out);
  return `${out.join('\n')}\n`;
}
