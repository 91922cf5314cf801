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
    const r = new Redactor().addLogin('argo-bot', '11d7f3c0a9b8');
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

/** A user, and passwords with what trips encoders: spaces, `+/=`, `~`, quotes, non-ASCII, a trailing newline. */
const USER = 'argo-mailer@example.com';
const SECRETS = ['Xk9#mP2$vL7q', 'pa ss+wo/rd=~!', 'sécret "quoted" \\ 日本', 'ends-in-newline-9f8e7d\n'];
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const b64url = (text: string): string => Buffer.from(text).toString('base64url');
const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());

/** Every form a credential is sent in, as an upstream or relay would echo it back. */
const FORMS: Array<[string, (secret: string) => string]> = [
  ['as given', (s) => s],
  ['trimmed', (s) => s.trim()],
  ['percent-encoded (query, path)', (s) => encodeURIComponent(s.trim())],
  ['percent-encoded, lower-case hex', (s) => lowerHex(encodeURIComponent(s.trim()))],
  ['form-encoded (+ for space)', (s) => new URLSearchParams({ v: s.trim() }).toString().slice(2)],
  ['form-encoded, lower-case hex', (s) => lowerHex(new URLSearchParams({ v: s.trim() }).toString().slice(2))],
  ['JSON-escaped (a JSON body or log line)', (s) => JSON.stringify(s).slice(1, -1)],
  ['HTTP Basic: base64(user:password)', (s) => b64(`${USER}:${s.trim()}`)],
  ['HTTP Basic decoded: user:password', (s) => `${USER}:${s.trim()}`],
  ['SMTP AUTH PLAIN: base64(\\0user\\0password)', (s) => b64(`\0${USER}\0${s.trim()}`)],
  ['SMTP AUTH LOGIN: base64(password)', (s) => b64(s.trim())],
  ['base64url (a JWT segment)', (s) => b64url(s.trim())],
];

/** The characters of `encoded` (base64 of `before + secret + after`) that carry bits of the secret. */
function secretRegion(before: string, secret: string, encoded: string): string {
  const start = Buffer.byteLength(before);
  const end = start + Buffer.byteLength(secret);
  return encoded.slice(Math.floor((start * 4) / 3), Math.ceil((end * 4) / 3));
}

/** The first 6 characters in a row of `region` still in `text`. */
function survivor(text: string, region: string): string | undefined {
  for (let i = 0; i + 6 <= region.length; i++)
    if (text.includes(region.slice(i, i + 6))) return region.slice(i, i + 6);
  return undefined;
}

describe('Redactor: every form a credential is sent in', () => {
  describe.each(SECRETS.map((s) => [JSON.stringify(s), s] as const))('password %s', (_name, secret) => {
    const r = new Redactor().addLogin(USER, secret);

    it.each(FORMS)('%s: masked whole in an echo', (_form, make) => {
      const form = make(secret);
      expect(r.redact(`535 5.7.8 rejected ${form} (echo)`)).toBe('535 5.7.8 rejected [REDACTED] (echo)');
    });

    it.each([0, 1, 2, 3, 7, 20])(
      'inside any base64 text (%i bytes before it, any user): no 6 characters that carry it survive',
      (before) => {
        for (const [prefix, suffix] of [
          ['x'.repeat(before), ''],
          [`\0someone-else\0${'y'.repeat(before)}`, '\x01\x01'],
          [`user=${'z'.repeat(before)}\x01auth=Bearer `, '\x01\x01'],
        ]) {
          for (const encode of [b64, b64url]) {
            const encoded = encode(`${prefix}${secret.trim()}${suffix}`);
            const masked = r.redact(`AUTH XOAUTH2 ${encoded}`);
            expect({
              prefix,
              survivor: survivor(masked, secretRegion(prefix, secret.trim(), encoded)),
            }).toEqual({
              prefix,
              survivor: undefined,
            });
          }
        }
      },
    );
  });

  it('a token alone (no user) in a Basic header of any user is masked too', () => {
    const r = new Redactor().add('jenkins-api-token-11d7f3c0a9b8');
    for (const user of ['a', 'ab', 'abc', 'argo-bot']) {
      const encoded = b64(`${user}:jenkins-api-token-11d7f3c0a9b8`);
      expect(
        survivor(
          r.redact(`Basic ${encoded}`),
          secretRegion(`${user}:`, 'jenkins-api-token-11d7f3c0a9b8', encoded),
        ),
      ).toBeUndefined();
    }
  });

  it('a PEM key: whole, as a JSON string, its base64 body in one piece and each line of it', () => {
    const body = Array.from({ length: 4 }, (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${i}${'A'.repeat(31)}`);
    const pem = `-----BEGIN PRIVATE KEY-----\n${body.join('\n')}\n-----END PRIVATE KEY-----\n`;
    const r = new Redactor().add(pem);
    expect(r.redact(`key ${pem}`)).toBe('key [REDACTED]');
    expect(r.redact(JSON.stringify({ private_key: pem }))).toBe('{"private_key":"[REDACTED]"}');
    expect(r.redact(`der ${body.join('')}`)).toBe('der [REDACTED]');
    for (const line of body) expect(r.redact(`line ${line} quoted`)).toBe('line [REDACTED] quoted');
    // The key file as the Secret holds it: JSON, the PEM's line breaks escaped.
    const file = new Redactor().add(JSON.stringify({ type: 'service_account', private_key: pem }));
    for (const line of body) expect(file.redact(`line ${line} quoted`)).toBe('line [REDACTED] quoted');
  });

  it('a signed JWT assertion: whole, and form-encoded in a token request', () => {
    const assertion = `${b64url('{"alg":"RS256"}')}.${b64url('{"iss":"bot@x.iam"}')}.c2lnbmF0dXJlLWJ5dGVz`;
    const r = new Redactor().add(assertion);
    const form = new URLSearchParams({ grant_type: 'jwt-bearer', assertion }).toString();
    expect(r.redact(form)).toBe('grant_type=jwt-bearer&assertion=[REDACTED]');
  });
});
