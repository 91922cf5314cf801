import fc from 'fast-check';
import { EXECUTE_TEMPLATE_PATH } from '@app/contract';
import { denseJson, executeArgs } from '@app/local-agent';
import type { RawRequest } from './raw-http.js';

/** What a bad request tries, and what it must get back. */
export interface BadRequest extends RawRequest {
  kind: string;
  /** Statuses this kind must get; undefined: any acceptable reply (400/403/404/413 or a valid 200). */
  expect?: number[];
  /**
   * The plugin may refuse before the client has finished sending (413, header overflow) and close the
   * connection without reading the rest: the client can then see a reset instead of the status.
   */
  mayReset?: boolean;
}

type Path = Array<string | number>;

/** The request the agent would send for `config`, with one input parameter (every level has something). */
export function validRequest(key: string, config: unknown): Record<string, unknown> {
  return executeArgs({ [key]: config }, { parameters: [{ name: 'seq', value: '1' }] }) as unknown as Record<
    string,
    unknown
  >;
}

/** Every path into a JSON value, the root included. */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

/** A deep copy of `root` with the value at `path` replaced (or removed when `value` is undefined). */
function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = value;
  return copy;
}

const objectPaths = (paths: Path[], root: unknown): Path[] =>
  paths.filter((p) => {
    const v = p.reduce<unknown>((n, s) => (n as Record<string | number, unknown>)?.[s], root);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });

const MARKER = '__reliability_marker__';

/** Any JSON-ish value of any type, small enough to send thousands of. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'null',
    '{{item}}',
    '../..',
    '%2e%2e%2f',
    '\u0000',
    'Infinity',
  ),
);

const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0x80],
  [0xc0, 0x80],
  [0xc3],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

const DEPTH = 10_000;
const FIVE_MB = 5 * 1024 * 1024;
/** Heap-dense JSON sent in a body: under BODY_LIMIT (1 MiB) with the rest of the request around it. */
export const HEAP_DENSE_BYTES = 1000 * 1024;

export interface BadRequestOptions {
  key: string;
  config: unknown;
  token: string;
}

/** fast-check arbitrary of bad requests against one plugin (`token` is the agent's valid token). */
export function badRequests(options: BadRequestOptions): fc.Arbitrary<BadRequest> {
  const f = badRequestFamilies(options);
  return fc.oneof(
    { arbitrary: f.randomJson, weight: 20 },
    { arbitrary: f.randomBytes, weight: 10 },
    { arbitrary: f.truncated, weight: 15 },
    { arbitrary: f.wrongType, weight: 50 },
    { arbitrary: f.extraField, weight: 15 },
    { arbitrary: f.randomConfig, weight: 25 },
    { arbitrary: f.protoKeys, weight: 20 },
    { arbitrary: f.deep, weight: 5 },
    { arbitrary: f.invalidUtf8, weight: 15 },
    { arbitrary: f.hugeHeader, weight: 5 },
    { arbitrary: f.badAuth, weight: 15 },
    { arbitrary: f.wrongRoute, weight: 15 },
    { arbitrary: f.big, weight: 1 }, // about 20 of 5,000: each is 5 MB on the wire
    { arbitrary: f.heapDense, weight: 2 }, // about 40 of 5,000: each is 1 MB on the wire
  );
}

/** Each family of bad requests on its own. */
export function badRequestFamilies({ key, config, token }: BadRequestOptions) {
  const valid = validRequest(key, config);
  const paths = pathsOf(valid);
  const objects = objectPaths(paths, valid);
  const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const post = (kind: string, body: Buffer | string, extra: Partial<BadRequest> = {}): BadRequest => ({
    kind,
    method: 'POST',
    path: EXECUTE_TEMPLATE_PATH,
    headers: auth,
    body,
    ...extra,
  });
  const withMarker = (path: Path, value: unknown): string =>
    JSON.stringify(setAt(valid, [...path, MARKER], value) ?? null);

  const randomJson = fc.jsonValue().map((v) => post('random JSON', JSON.stringify(v) ?? ''));

  const randomBytes = fc.uint8Array({ maxLength: 300 }).map((b) => post('random bytes', Buffer.from(b)));

  const validText = JSON.stringify(valid);
  const truncated = fc
    .nat({ max: validText.length - 1 })
    .map((cut) => post('truncated JSON', validText.slice(0, cut)));

  const wrongType = fc
    .tuple(fc.constantFrom(...paths), anyValue)
    .map(([path, value]) =>
      post(`wrong type at ${path.join('.') || '(root)'}`, JSON.stringify(setAt(valid, path, value)) ?? ''),
    );

  const extraField = fc
    .tuple(fc.constantFrom(...objects), fc.string({ maxLength: 12 }), anyValue)
    .map(([path, name, value]) =>
      post(
        `unknown field at ${path.join('.') || '(root)'}`,
        JSON.stringify(setAt(valid, [...path, name], value)),
      ),
    );

  const randomConfig = fc
    .dictionary(
      fc.oneof(fc.constantFrom(...Object.keys((config as object) ?? {})), fc.string({ maxLength: 8 })),
      anyValue,
      { maxKeys: 5 },
    )
    .map((body) =>
      post('random plugin body', JSON.stringify(setAt(valid, ['template', 'plugin', key], body))),
    );

  const protoKeys = fc
    .tuple(
      fc.constantFrom(...objects),
      fc.constantFrom('__proto__', 'constructor', 'prototype'),
      fc.constantFrom(
        { polluted: 'yes' },
        { prototype: { polluted: 'yes' } },
        { toString: 'not a function', valueOf: 1 },
        { [MARKER]: { polluted: 'yes' } },
        'polluted',
        null,
      ),
    )
    .map(([path, name, value]) =>
      post(
        `${name} key at ${path.join('.') || '(root)'}`,
        withMarker(path, value).replaceAll(`"${MARKER}"`, JSON.stringify(name)),
      ),
    );

  // Values (not keys) named after what every object inherits, wherever the body has a string: a status, a
  // provider state, a duration unit (`1constructor`), an input parameter's name. Looked up in a plain object,
  // they find a function instead of nothing.
  const stringPaths = paths.filter(
    (p) =>
      typeof p.reduce<unknown>((n, seg) => (n as Record<string | number, unknown>)?.[seg], valid) ===
      'string',
  );
  const protoValues = fc
    .tuple(
      fc.constantFrom(...stringPaths),
      fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', '1constructor', '1toString'),
    )
    .map(([path, name]) =>
      post(
        `${JSON.stringify(name)} as the value at ${path.join('.')}`,
        JSON.stringify(setAt(valid, path, name)),
      ),
    );

  const deep = fc.tuple(fc.constantFrom(...paths), fc.constantFrom('[', '{"a":')).map(([path, open]) => {
    const close = open === '[' ? ']' : '}';
    const nested = `${open.repeat(DEPTH)}${open === '[' ? '' : '1'}${close.repeat(DEPTH)}`;
    const text = JSON.stringify(setAt(valid, path, MARKER)).replace(`"${MARKER}"`, nested);
    return post(`${DEPTH}-deep nesting at ${path.join('.') || '(root)'}`, text);
  });

  const invalidUtf8 = fc
    .tuple(
      fc.constantFrom(...paths.filter((p) => p.length > 0)),
      fc.constantFrom(...INVALID_UTF8),
      fc.boolean(),
    )
    .map(([path, bytes, insideString]) => {
      const text = JSON.stringify(setAt(valid, path, `a${MARKER}b`));
      const [before, after] = text.split(MARKER);
      const cut = insideString ? before.length : before.length - 2; // inside the string, or across its quote
      const buffer = Buffer.concat([
        Buffer.from(text.slice(0, cut)),
        Buffer.from(bytes),
        Buffer.from(insideString ? after : text.slice(cut).replace(MARKER, '')),
      ]);
      return post(`invalid UTF-8 at ${path.join('.')}`, buffer);
    });

  const refusedEarly = { expect: [413], mayReset: true };
  const big = fc.constantFrom('string', 'garbage', 'chunked').map((how) => {
    if (how === 'string')
      return post(
        '5 MB body (a string in the plugin body)',
        withMarker(['template', 'plugin', key], 'x'.repeat(FIVE_MB)),
        refusedEarly,
      );
    if (how === 'garbage') return post('5 MB body (not JSON)', Buffer.alloc(FIVE_MB, 0x7b), refusedEarly);
    return post('5 MB body (chunked, no Content-Length)', Buffer.alloc(FIVE_MB, 0x20), {
      headers: { ...auth, 'Transfer-Encoding': 'chunked' },
      ...refusedEarly,
    });
  });

  // Under the byte limit, dear to parse: `[{},{},…]` (an object per 3 bytes) or `[[[…]]]` (a level per byte).
  const heapDense = fc
    .tuple(fc.constantFrom(...paths), fc.constantFrom('wide' as const, 'deep' as const))
    .map(([path, shape]) =>
      post(
        `heap-dense ${shape} JSON (${HEAP_DENSE_BYTES / 1024} KiB) at ${path.join('.') || '(root)'}`,
        JSON.stringify(setAt(valid, path, MARKER)).replace(`"${MARKER}"`, denseJson(shape, HEAP_DENSE_BYTES)),
        // Refused while it arrives (413), or 503 while other bodies in flight hold the front's budget.
        { expect: [413, 503], mayReset: true },
      ),
    );

  const hugeHeader = fc
    .tuple(
      fc.integer({ min: 8 * 1024, max: 128 * 1024 }),
      fc.constantFrom('X-Fuzz', 'Authorization', 'Content-Type'),
    )
    .map(([size, name]) => {
      const value = name === 'Authorization' ? `Bearer ${token}${'a'.repeat(size)}` : 'a'.repeat(size);
      return post(`huge ${name} header (${Math.round(size / 1024)} KB)`, JSON.stringify(valid), {
        headers: { ...auth, [name]: value },
        expect: name === 'Authorization' || size > 16 * 1024 ? [400, 403] : undefined,
        mayReset: size > 16 * 1024,
      });
    });

  const badAuth = fc
    .constantFrom(
      undefined,
      '',
      'Bearer',
      'Bearer ',
      `bearer ${token}`,
      `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token}x`,
      `Bearer  ${token}`,
      `Bearer ${token.toUpperCase()}`,
      `Token ${token}`,
      token,
    )
    .chain((authorization) =>
      fc.tuple(
        fc.constant(authorization),
        fc.constantFrom('POST', 'GET', 'PUT', 'DELETE'),
        fc.constantFrom(EXECUTE_TEMPLATE_PATH, '/', '/healthz', '/api/v1/other'),
      ),
    )
    .map(([authorization, method, path]) => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (authorization !== undefined) headers.Authorization = authorization;
      return {
        kind: `Authorization ${authorization === undefined ? 'missing' : JSON.stringify(authorization.replace(token, '<token>'))} on ${method} ${path}`,
        method,
        path,
        headers,
        body: method === 'GET' ? undefined : JSON.stringify(valid),
        expect: [403],
      } satisfies BadRequest;
    });

  const wrongRoute = fc
    .tuple(
      fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'POST', 'PROPFIND'),
      fc.oneof(
        fc.constantFrom(
          EXECUTE_TEMPLATE_PATH,
          '/',
          '/api/v1/template.execute/',
          '/API/V1/TEMPLATE.EXECUTE',
          '/api/v1/template.execute%00',
          '//api/v1/template.execute',
          '/api/v1/../v1/template.execute',
          '/api/v1/template%2Eexecute',
          '/api/v1/template.executes',
          '/api/v2/template.execute',
          '*',
        ),
        fc.webPath().map((p) => p || '/'),
      ),
    )
    .filter(([method, path]) => !(method === 'POST' && path === EXECUTE_TEMPLATE_PATH))
    .map(([method, path]) => ({
      kind: `${method} ${path.length > 40 ? 'random path' : path}`,
      method,
      path,
      headers: auth,
      body: method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify(valid),
      expect: [404, 400],
    }));

  return {
    randomJson,
    randomBytes,
    truncated,
    wrongType,
    extraField,
    randomConfig,
    protoKeys,
    protoValues,
    deep,
    invalidUtf8,
    hugeHeader,
    badAuth,
    wrongRoute,
    big,
    heapDense,
  };
}
