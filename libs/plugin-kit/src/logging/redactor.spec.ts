import { looksSecret, Redactor } from './redactor.js';

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
});
