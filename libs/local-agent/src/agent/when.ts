/**
 * The subset of Argo's `when` (govaluate) the local agent evaluates after substitution: `==`, `!=`, `&&`,
 * `||`, `!`, parentheses, quoted or bare strings, numbers and true/false. Anything else is an error, so a
 * condition is never silently taken as true.
 */
type Token = { kind: 'op'; value: string } | { kind: 'lit'; value: string };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const two = input.slice(i, i + 2);
    if (['==', '!=', '&&', '||'].includes(two)) {
      tokens.push({ kind: 'op', value: two });
      i += 2;
      continue;
    }
    if ('()!'.includes(c)) {
      tokens.push({ kind: 'op', value: c });
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = input.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated string in when expression: ${input}`);
      tokens.push({ kind: 'lit', value: input.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const m = /^[^\s()!=&|'"]+/.exec(input.slice(i));
    if (!m) throw new Error(`unsupported when expression: ${input}`);
    tokens.push({ kind: 'lit', value: m[0] });
    i += m[0].length;
  }
  return tokens;
}

export function evaluateWhen(input: string): boolean {
  const tokens = tokenize(input);
  let pos = 0;
  const peek = () => tokens[pos];
  const expectOp = (v: string) => {
    const t = tokens[pos++];
    if (!t || t.kind !== 'op' || t.value !== v) throw new Error(`unsupported when expression: ${input}`);
  };
  const truthy = (v: string | boolean) => (typeof v === 'boolean' ? v : v === 'true');
  const primary = (): string | boolean => {
    const t = tokens[pos++];
    if (!t) throw new Error(`unsupported when expression: ${input}`);
    if (t.kind === 'op' && t.value === '(') {
      const v = or();
      expectOp(')');
      return v;
    }
    if (t.kind === 'op' && t.value === '!') return !truthy(primary());
    if (t.kind === 'lit') return t.value;
    throw new Error(`unsupported when expression: ${input}`);
  };
  const comparison = (): string | boolean => {
    const left = primary();
    const t = peek();
    if (t?.kind === 'op' && (t.value === '==' || t.value === '!=')) {
      pos++;
      const right = primary();
      const eq = String(left) === String(right);
      return t.value === '==' ? eq : !eq;
    }
    return left;
  };
  const and = (): string | boolean => {
    let v = comparison();
    while (peek()?.kind === 'op' && peek()!.value === '&&') {
      pos++;
      const r = comparison();
      v = truthy(v) && truthy(r);
    }
    return v;
  };
  const or = (): string | boolean => {
    let v = and();
    while (peek()?.kind === 'op' && peek()!.value === '||') {
      pos++;
      const r = and();
      v = truthy(v) || truthy(r);
    }
    return v;
  };
  const result = or();
  if (pos !== tokens.length) throw new Error(`unsupported when expression: ${input}`);
  if (typeof result === 'boolean') return result;
  if (result === 'true' || result === 'false') return result === 'true';
  throw new Error(`when expression is not a condition: ${input}`);
}
