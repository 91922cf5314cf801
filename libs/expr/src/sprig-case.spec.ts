import { describe, expect, it } from '@jest/globals';

import { toDelimitedCase, toPascalCase } from './sprig-case.js';

// Expected values from sprig v3.3.0's snakecase/kebabcase (huandu/xstrings) under expr v1.17.8.
describe('xstrings ToSnakeCase / ToKebabCase', () => {
  it.each<[string, string, string]>([
    ['HTTPServer', '_', 'http_server'],
    ['FirstName', '-', 'first-name'],
    ['refs/tags/v1.0.0', '-', 'refs/tags/v1.0.0'],
    ['2024-02-29T10:00:00Z', '_', '2024_02_29_t10:00:00_z'],
    ['ǅ straße', '_', 'ǅ_straße'],
    ['日本語', '-', '日本語'],
    ['aGVsbG8=', '_', 'a_g_vsb_g8_='],
    ['https://x.io/a?b=1', '-', 'https://x.io/a?b-=1'],
    ['a,b,c', '-', 'a,b,c'],
    ['5pel5pys', '-', '5pel5pys'],
    ['0x1F', '-', '0x1-f'],
    ['  padded  ', '-', '--padded--'],
    ['quote"s', '_', 'quote"s'],
    ['1e3', '_', '1e3'],
    ['feature/x-1', '_', 'feature/x_1'],
  ])('%j with %j is %j', (input, connector, expected) => {
    expect(toDelimitedCase(input, connector)).toBe(expected);
  });
});

describe('xstrings ToPascalCase (sprig camelcase)', () => {
  it.each<[string, string]>([
    ['HTTPServer', 'Httpserver'],
    ['aGVsbG8=', 'AGVsbG8='],
    ['my-discriminator', 'MyDiscriminator'],
    ['http_server', 'HttpServer'],
    ['_complex__case_', '_Complex_Case_'],
    ['0x1F', '0x1F'],
    ['İstanbul', 'İstanbul'],
    ['a,b,c', 'A,b,c'],
  ])('%j is %j', (input, expected) => {
    expect(toPascalCase(input)).toBe(expected);
  });
});
