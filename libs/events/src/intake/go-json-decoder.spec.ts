import { decodeFirstJsonValue, GoJsonSyntaxError } from './go-json-decoder.js';

const decode = (text: string) => decodeFirstJsonValue(Buffer.from(text, 'latin1'));
const error = (text: string) => {
  try {
    decode(text);
  } catch (e) {
    if (e instanceof GoJsonSyntaxError) return e.message;
    throw e;
  }
  throw new Error(`no error for ${text}`);
};

describe('Go json.Decoder.Decode', () => {
  it.each([
    ['', undefined],
    ['  \n\t', undefined],
    ['null', null],
    ['{"a":[1,2.5,-3e2,true,false,null,"x\\n\\u00e9"]}', { a: [1, 2.5, -300, true, false, null, 'x\né'] }],
    ['"hi"', 'hi'],
    ['[1,2]', [1, 2]],
    ['{"a":1} trailing', { a: 1 }],
    ['[1]]', [1]],
    ['1x', 1],
    ['true false', true],
    ['  {"a" : 1 }  ', { a: 1 }],
  ])('%j → %j', (text, value) => {
    expect(decode(text)).toEqual(value);
  });

  it.each([
    ['{', 'unexpected EOF'],
    ['[1,', 'unexpected EOF'],
    ['"abc', 'unexpected EOF'],
    ['tru', 'unexpected EOF'],
    ['-', 'unexpected EOF'],
    ['!', "invalid character '!' looking for beginning of value"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12G4"', "invalid character 'G' in \\u hexadecimal character escape"],
    ['01', '1'],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1e+', 'unexpected EOF'],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['nul!', "invalid character '!' in literal null (expecting 'l')"],
  ])('%j → %s', (text, message) => {
    if (message === '1') expect(decode(text)).toBe(0);
    else expect(error(text)).toBe(message);
  });
});
