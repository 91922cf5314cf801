import { SecretScanner } from './secrets.js';

describe('SecretScanner', () => {
  const scanner = new SecretScanner([
    { name: 'API_TOKEN', value: 'tok"en/with+chars' },
    { name: 'PIN', value: '1234' },
  ]);

  it('finds a value as is, JSON-escaped, URL-encoded and base64-encoded', () => {
    expect(scanner.find('the token is tok"en/with+chars')).toEqual(['API_TOKEN']);
    expect(scanner.find(JSON.stringify({ m: 'tok"en/with+chars' }))).toEqual(['API_TOKEN']);
    expect(scanner.find(`?t=${encodeURIComponent('tok"en/with+chars')}`)).toEqual(['API_TOKEN']);
    expect(scanner.find(Buffer.from('tok"en/with+chars').toString('base64'))).toEqual(['API_TOKEN']);
    expect(scanner.find('nothing here')).toEqual([]);
  });

  it('masks every form, and does not check values too short to mean anything', () => {
    expect(scanner.mask('a tok\\"en/with+chars b')).toBe('a ***API_TOKEN*** b');
    expect(scanner.names).toEqual(['API_TOKEN']);
    expect(scanner.tooShort).toEqual(['PIN']);
  });
});
