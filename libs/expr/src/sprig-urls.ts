// sprig's urlParse and urlJoin (url.go of v3.3.0) over Go's net/url.
import { fail, Fault } from './errors.js';
import { hostname, parseUrl, urlString, userString } from './go-url.js';
import type { GoUrl } from './go-url.js';
import { fn, kindName } from './sprig-kit.js';
import type { ExprMap, GoFunction } from './values.js';

function urlParse(text: string): ExprMap {
  let url: GoUrl;
  try {
    url = parseUrl(text);
  } catch (e) {
    if (e instanceof Fault) return fail(`unable to parse url: ${e.reason}`);
    throw e;
  }
  return new Map([
    ['scheme', url.scheme],
    ['host', url.host],
    ['hostname', hostname(url.host)],
    ['path', url.path],
    ['query', url.rawQuery],
    ['opaque', url.opaque],
    ['fragment', url.fragment],
    ['userinfo', url.user ? userString(url.user) : ''],
  ]);
}

/** dictGetOrEmpty: a missing key is "", a value that is not a string panics (nil has no kind at all). */
function field(dict: ExprMap, key: string): string {
  if (!dict.has(key)) return '';
  const value = dict.get(key)!;
  if (value === null) fail('runtime error: invalid memory address or nil pointer dereference');
  if (typeof value !== 'string')
    fail(`unable to parse ${key} key, must be of type string, but ${kindName(value)} found`);
  return value;
}

function urlJoin(dict: ExprMap): string {
  const url: GoUrl = {
    scheme: field(dict, 'scheme'),
    host: field(dict, 'host'),
    path: field(dict, 'path'),
    rawQuery: field(dict, 'query'),
    opaque: field(dict, 'opaque'),
    fragment: field(dict, 'fragment'),
    omitHost: false,
    forceQuery: false,
  };
  const userinfo = field(dict, 'userinfo');
  if (userinfo !== '') {
    try {
      url.user = parseUrl(`proto://${userinfo}@host`).user;
    } catch (e) {
      if (e instanceof Fault) return fail(`unable to parse userinfo in dict: ${e.reason}`);
      throw e;
    }
  }
  return urlString(url);
}

export const URL_FUNCTIONS: readonly GoFunction[] = [
  fn('urlParse', ['string'], 'map[string]interface {}', ([s]) => urlParse(s as string)),
  fn('urlJoin', ['map[string]interface {}'], 'string', ([d]) => urlJoin((d ?? new Map()) as ExprMap)),
];
