import { describe, expect, it } from '@jest/globals';

import { marshal } from './go-json.js';
import { jsonPathGet } from './jsonpath.js';
import { unmarshal } from './go-json.js';

const DOC = '{"a":{"name":"n1"},"b":[{"name":"n2"},{"name":"n3","n":2}],"list":[1,2,3]}';
const query = (path: string, doc = DOC): string => marshal(jsonPathGet(path, unmarshal(doc)));

// Expected values from evilmonkeyinc/jsonpath v0.8.1 as Argo's jsonpath() calls it (the reference results).
describe('jsonpath (evilmonkeyinc/jsonpath)', () => {
  it.each<[string, string, string]>([
    ['$.list.length', '3', DOC],
    ['$.length', '3', '[1,2,3]'],
    ['$.a.length', '1', DOC],
    ['$.list[0,2]', '[1,3]', DOC],
    ["$['a','list'][0]", '{"name":"n1"}', DOC],
    ['@.a', '{"name":"n1"}', DOC],
    ['$.list[?(@ > 1)]', '[2,3]', DOC],
    ['$[?(@ >= 2)]', '[2,3]', '[1,2,3]'],
    ['$.b[?(@.n)]', '[{"n":2,"name":"n3"}]', DOC],
    ["$.b[?(@.name == 'n2')]", '[{"name":"n2"}]', DOC],
    ['$.b[?(@.name == "n3")].n', '[2]', DOC],
    ['$.b[?(@.n > 1 && @.name != "x")].name', '["n3"]', DOC],
    // a missing key is an error and 2 is no boolean: neither element passes
    ['$.b[?(!@.n)].name', '[]', DOC],
    ['$.b[?(@.name =~ "n[23]")][0].name', '"n2"', DOC],
    ['$[?(@.a ==)]', '[]', DOC],
    [
      '$..*',
      '[{"name":"n1"},[{"name":"n2"},{"n":2,"name":"n3"}],[1,2,3],"n1",{"name":"n2"},{"n":2,"name":"n3"},"n2",2,"n3",1,2,3]',
      DOC,
    ],
    ['$.b[*].n', '[2]', DOC],
  ])('%s gives %s', (path, expected, doc) => {
    expect(query(path, doc)).toBe(expected);
  });

  it('fails where the library fails', () => {
    expect(() => jsonPathGet('$.a.name.length.x', unmarshal(DOC))).toThrow();
    expect(() => jsonPathGet('x', unmarshal(DOC))).toThrow("unexpected token 'x' at index 0");
    expect(() => jsonPathGet('$.list[0:1:2]', unmarshal(DOC))).toThrow();
  });
});
