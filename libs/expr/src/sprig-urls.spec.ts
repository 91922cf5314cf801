import { describe, expect, it } from '@jest/globals';

import { marshal } from './go-json.js';
import { goValue, META_ENV, runtimeError } from './spec-helpers.js';

const json = (source: string): string => marshal(goValue(source, META_ENV));

// Expected values from sprig v3.3.0 over Go 1.23's net/url (url.Parse, URL.String).
describe('sprig urlParse and urlJoin', () => {
  it.each<[string, string]>([
    [
      'sprig.urlParse("https://u:p%40@x.io:8080/a%20b?b=1#f")',
      '{"fragment":"f","host":"x.io:8080","hostname":"x.io","opaque":"","path":"/a b","query":"b=1","scheme":"https","userinfo":"u:p%40"}',
    ],
    [
      'sprig.urlParse("a-b_c d")',
      '{"fragment":"","host":"","hostname":"","opaque":"","path":"a-b_c d","query":"","scheme":"","userinfo":""}',
    ],
    [
      'sprig.urlParse("mailto:me@x.io")',
      '{"fragment":"","host":"","hostname":"","opaque":"me@x.io","path":"","query":"","scheme":"mailto","userinfo":""}',
    ],
    [
      'sprig.urlJoin({scheme: "https", host: "x.io", path: "/a b", query: "b=1", fragment: "f g"})',
      '"https://x.io/a%20b?b=1#f%20g"',
    ],
    ['sprig.urlJoin({scheme: "https", host: "h", userinfo: "u:p"})', '"https://u:p@h"'],
    ['sprig.urlJoin({path: "a:b"})', '"./a:b"'],
    ['sprig.urlJoin(nil)', '""'],
  ])('%s gives %s', (source, expected) => {
    expect(json(source)).toBe(expected);
  });

  it.each<[string, string]>([
    ['sprig.urlParse("%zz")', 'unable to parse url: parse "%zz": invalid URL escape "%zz"'],
    ['sprig.urlParse(":x")', 'unable to parse url: parse ":x": missing protocol scheme'],
    [
      'sprig.urlParse("1a:b")',
      'unable to parse url: parse "1a:b": first path segment in URL cannot contain colon',
    ],
    [
      'sprig.urlParse("http://h:x/")',
      'unable to parse url: parse "http://h:x/": invalid port ":x" after host',
    ],
    ['sprig.urlJoin({host: 1})', 'unable to parse host key, must be of type string, but int found'],
  ])('%s fails: %s', (source, message) => {
    expect(runtimeError(source, META_ENV).reason).toBe(message);
  });
});
