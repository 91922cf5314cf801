// Go's net/url as sprig's urlParse and urlJoin use it: url.Parse and URL.String. Work happens on bytes
// (a "binary" string, one character per byte), as Go's parser indexes bytes.
import { fail } from './errors.js';
import { fromUtf8Bytes, utf8Bytes } from './go-bytes.js';
import { goQuote } from './go-format.js';

export interface GoUrl {
  scheme: string;
  opaque: string;
  user?: { username: string; password?: string };
  host: string;
  path: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
}

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'fragment';

const toBinary = (s: string): string => String.fromCharCode(...utf8Bytes(s));
const fromBinary = (s: string): string => fromUtf8Bytes(Array.from(s, (c) => c.charCodeAt(0)));
const isAlnum = (c: string): boolean => /^[A-Za-z0-9]$/.test(c);
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

class UrlFault extends Error {}

function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    if (mode === 'path') return c === '?';
    if (mode === 'userPassword') return '@/?:'.includes(c);
    if (mode === 'fragment') return false;
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

function unescape(s: string, mode: Mode): string {
  for (let i = 0; i < s.length;) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2]))
        throw new UrlFault(`invalid URL escape ${goQuote(fromBinary(s.slice(i, i + 3)))}`);
      const v = parseInt(s.slice(i + 1, i + 3), 16);
      const triple = s.slice(i, i + 3);
      if (mode === 'host' && v >> 4 < 8 && triple !== '%25')
        throw new UrlFault(`invalid URL escape ${goQuote(triple)}`);
      if (mode === 'zone' && triple !== '%25' && v !== 0x20 && shouldEscape(String.fromCharCode(v), 'host'))
        throw new UrlFault(`invalid URL escape ${goQuote(triple)}`);
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode))
        throw new UrlFault(`invalid character ${goQuote(c)} in host name`);
      i++;
    }
  }
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function escape(s: string, mode: Mode): string {
  return Array.from(s, (c) =>
    shouldEscape(c, mode) ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : c,
  ).join('');
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new UrlFault("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort))
      throw new UrlFault(`invalid port ${goQuote(fromBinary(colonPort))} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0)
      return (
        unescape(host.slice(0, zone), 'host') +
        unescape(host.slice(zone, i), 'zone') +
        unescape(host.slice(i), 'host')
      );
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0 && !validOptionalPort(host.slice(i)))
      throw new UrlFault(`invalid port ${goQuote(fromBinary(host.slice(i)))} after host`);
  }
  return unescape(host, 'host');
}

function parseAuthority(authority: string): Pick<GoUrl, 'user' | 'host'> {
  const at = authority.lastIndexOf('@');
  const host = parseHost(authority.slice(at + 1));
  if (at < 0) return { host };
  const userinfo = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) throw new UrlFault('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { host, user: { username: unescape(userinfo, 'userPassword') } };
  return {
    host,
    user: {
      username: unescape(userinfo.slice(0, colon), 'userPassword'),
      password: unescape(userinfo.slice(colon + 1), 'userPassword'),
    },
  };
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/^[A-Za-z]$/.test(c)) continue;
    if (/^[0-9+\-.]$/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new UrlFault('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function parseReference(raw: string): GoUrl {
  if (Array.from(raw).some((c) => c < ' ' || c === '\x7f'))
    throw new UrlFault('net/url: invalid control character in URL');
  const url: GoUrl = {
    scheme: '',
    opaque: '',
    host: '',
    path: '',
    omitHost: false,
    forceQuery: false,
    rawQuery: '',
    fragment: '',
  };
  if (raw === '*') return { ...url, path: '*' };
  const [scheme, afterScheme] = getScheme(raw);
  let rest = afterScheme;
  url.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) [rest, url.rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    if (rest.split('/')[0]!.includes(':'))
      throw new UrlFault('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) [authority, rest] = [authority.slice(0, slash), authority.slice(slash)];
    Object.assign(url, parseAuthority(authority));
  } else if (url.scheme !== '' && rest.startsWith('/')) url.omitHost = true;
  url.path = unescape(rest, 'path');
  return url;
}

/** url.Parse; a failure is the text of Go's *url.Error. */
export function parseUrl(text: string): GoUrl {
  const raw = toBinary(text);
  const hash = raw.indexOf('#');
  const [u, fragment] = hash < 0 ? [raw, ''] : [raw.slice(0, hash), raw.slice(hash + 1)];
  let url: GoUrl;
  try {
    url = parseReference(u);
  } catch (e) {
    if (e instanceof UrlFault) return fail(`parse ${goQuote(fromBinary(u))}: ${e.message}`);
    throw e;
  }
  try {
    url.fragment = unescape(fragment, 'fragment');
  } catch (e) {
    if (e instanceof UrlFault) return fail(`parse ${goQuote(text)}: ${e.message}`);
    throw e;
  }
  return decoded(url);
}

function decoded(url: GoUrl): GoUrl {
  const user = url.user && {
    username: fromBinary(url.user.username),
    ...(url.user.password !== undefined && { password: fromBinary(url.user.password) }),
  };
  return {
    ...url,
    scheme: fromBinary(url.scheme),
    opaque: fromBinary(url.opaque),
    host: fromBinary(url.host),
    path: fromBinary(url.path),
    rawQuery: fromBinary(url.rawQuery),
    fragment: fromBinary(url.fragment),
    ...(user && { user }),
  };
}

/** URL.Hostname: the host without its port and IPv6 brackets. */
export function hostname(host: string): string {
  let h = host;
  const colon = h.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(h.slice(colon))) h = h.slice(0, colon);
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h;
}

/** Userinfo.String: the escaped user name, and `:password` when one is set. */
export function userString(user: NonNullable<GoUrl['user']>): string {
  const e = (s: string): string => fromBinary(escape(toBinary(s), 'userPassword'));
  return user.password === undefined ? e(user.username) : `${e(user.username)}:${e(user.password)}`;
}

/** URL.String. */
export function urlString(url: GoUrl): string {
  const b = (s: string): string => toBinary(s);
  let out = '';
  if (url.scheme !== '') out += `${b(url.scheme)}:`;
  if (url.opaque !== '') out += b(url.opaque);
  else {
    if (url.scheme !== '' || url.host !== '' || url.user) {
      if (!(url.omitHost && url.host === '' && !url.user)) {
        if (url.host !== '' || url.path !== '' || url.user) out += '//';
        if (url.user) out += `${b(userString(url.user))}@`;
        if (url.host !== '') out += escape(b(url.host), 'host');
      }
    }
    const path = url.path === '*' ? '*' : escape(b(url.path), 'path');
    if (path !== '' && path[0] !== '/' && url.host !== '') out += '/';
    if (out === '' && path.split('/')[0]!.includes(':')) out += './';
    out += path;
  }
  if (url.forceQuery || url.rawQuery !== '') out += `?${b(url.rawQuery)}`;
  if (url.fragment !== '') out += `#${escape(b(url.fragment), 'fragment')}`;
  return fromBinary(out);
}
