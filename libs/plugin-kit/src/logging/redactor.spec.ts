import { formEncoded, looksSecret, Redactor } from './redactor.js';

describe('Redactor', () => {
  it('masks every known secret, also in its JSON-escaped form', () => {
    const r = new Redactor().add('xoxb-123456-abcdef', 'pa"ss\\word!');
    expect(r.redact('token xoxb-123456-abcdef in text')).toBe('token [REDACTED] in text');
    expect(r.redact(JSON.stringify({ p: 'pa"ss\\word!' }))).toBe('{"p":"[REDACTED]"}');
  });

  it('ignores values too short to be secrets and masks the longest first', () => {
    const r = new Redactor().add('abc', 'secret-one', 'secret-one-extended');
    expect(r.redact('abc secret-one-extended')).toBe('abc [REDACTED]');
  });

  it('replaces a rotated value', () => {
    const r = new Redactor().add('old-token-value');
    r.replace('old-token-value', 'new-token-value');
    expect(r.redact('old-token-value new-token-value')).toBe('old-token-value [REDACTED]');
  });

  it('masks a value with surrounding whitespace in the forms that are sent: trimmed and URL-encoded', () => {
    const r = new Redactor().add('  ghp_FAKE/token+value=\n');
    expect(r.redact('Authorization: Bearer ghp_FAKE/token+value= sent')).toBe(
      'Authorization: Bearer [REDACTED] sent',
    );
    expect(r.redact('?token=ghp_FAKE%2Ftoken%2Bvalue%3D&x=1')).toBe('?token=[REDACTED]&x=1');
    expect(r.redact(JSON.stringify({ t: '  ghp_FAKE/token+value=\n' }))).toBe('{"t":"[REDACTED]"}');
  });

  it('masks a secret as a form body encodes it (URLSearchParams: ~ as %7E, a space as +)', () => {
    const r = new Redactor().add('Ab8Q~xYz.secret value');
    expect(encodeURIComponent('Ab8Q~xYz.secret value')).not.toContain('%7E');
    expect(r.redact('client_secret=Ab8Q%7ExYz.secret+value&scope=x')).toBe(
      'client_secret=[REDACTED]&scope=x',
    );
  });

  it('masks Basic credentials encoded and decoded', () => {
    const r = new Redactor().addBasic('argo-bot', '11d7f3c0a9b8');
    const header = Buffer.from('argo-bot:11d7f3c0a9b8').toString('base64');
    expect(r.redact(`Basic ${header}`)).toBe('Basic [REDACTED]');
    expect(r.redact('user argo-bot:11d7f3c0a9b8 denied')).toBe('user [REDACTED] denied');
  });

  it('forgets every form of a rotated value', () => {
    const r = new Redactor().add('old token/value\n');
    r.replace('old token/value\n', 'new-token-value');
    expect(r.redact('old%20token%2Fvalue old token/value')).toBe('old%20token%2Fvalue old token/value');
  });

  it('takes over every form another redactor masks (a collection front and its plugins)', () => {
    const plugin = new Redactor().add(' pa ss/word\n');
    const front = new Redactor().absorb(plugin);
    expect(front.size).toBe(plugin.size);
    for (const text of ['pa ss/word', 'pa%20ss%2Fword', 'pa+ss%2Fword', ' pa ss/word\\n'])
      expect(front.redact(`x ${text} y`)).toBe('x [REDACTED] y');
    front.add(' pa ss/word\n');
    expect(front.size).toBe(plugin.size);
  });

  it('masks a value again after it was rotated away and back', () => {
    const r = new Redactor().add('first-token-value');
    r.replace('first-token-value', 'second-token-value');
    r.replace('second-token-value', 'first-token-value');
    expect(r.redact('first-token-value second-token-value')).toBe('[REDACTED] second-token-value');
  });

  it('redacts deep values', () => {
    expect(new Redactor().add('s3cr3t-value').redactValue({ a: ['s3cr3t-value'] })).toEqual({
      a: ['[REDACTED]'],
    });
  });

  it.each([
    ['SLACK_BOT_TOKEN', true],
    ['JENKINS_API_TOKEN', true],
    ['AIRFLOW_PASSWORD', true],
    ['DBT_CLOUD_API_KEY', true],
    ['SLACK_API_URL', false],
    ['PORT', false],
  ])('looksSecret(%s) = %s', (name, expected) => expect(looksSecret(name)).toBe(expected));

  it('writes a value as URLSearchParams does for a form body, for every ASCII character and beyond', () => {
    const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('');
    for (const value of [
      ascii,
      "pa ss~w!o'r(d)*-._",
      'ümlaut 日本語 🎉',
      'lone \uD800 high',
      'lone \uDC00 low',
      '',
    ]) {
      expect(formEncoded(value)).toBe(new URLSearchParams({ v: value }).toString().slice(2));
    }
  });
});
