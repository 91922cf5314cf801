import { generateKeyPairSync } from 'node:crypto';
import { parseServiceAccount } from './service-account.js';

const pem = (type: 'rsa' | 'ec') =>
  (type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 2048 })
    : generateKeyPairSync('ec', { namedCurve: 'P-256' })
  ).privateKey
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();

const RSA = pem('rsa');
const keyFile = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'p',
    private_key_id: 'abc123',
    private_key: RSA,
    client_email: 'notifier@p.iam.gserviceaccount.com',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...overrides,
  });

describe('parseServiceAccount', () => {
  it('reads a key file: e-mail, key ID, RSA key, token endpoint', () => {
    const { account, problem } = parseServiceAccount(keyFile());
    expect(problem).toBeUndefined();
    expect(account).toMatchObject({
      clientEmail: 'notifier@p.iam.gserviceaccount.com',
      keyId: 'abc123',
      privateKeyPem: RSA,
      tokenUri: 'https://oauth2.googleapis.com/token',
    });
    expect(account!.privateKey.asymmetricKeyType).toBe('rsa');
  });

  it.each([
    ['not json', 'must be the JSON key file of a service account (it is not JSON)'],
    ['[1]', 'must be the JSON key file of a service account (an object)'],
    [keyFile({ type: 'authorized_user' }), 'type: must be service_account'],
    [keyFile({ client_email: 'nobody' }), 'client_email: must be the service account e-mail address'],
    [
      keyFile({ token_uri: 'oauth2.googleapis.com/token' }),
      'token_uri: must be an http(s) URL (https://oauth2.googleapis.com/token)',
    ],
    [
      keyFile({ private_key: 'secret-but-not-pem' }),
      'private_key: must be a PEM private key (-----BEGIN PRIVATE KEY-----)',
    ],
    [
      keyFile({ private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' }),
      'private_key: is not a readable PEM private key',
    ],
    [keyFile({ private_key: pem('ec') }), 'private_key: must be an RSA key (service account keys are RSA)'],
  ])('%#: %s → a problem naming the field, not the value', (raw, expected) => {
    const { account, problem } = parseServiceAccount(raw);
    expect(account).toBeUndefined();
    expect(problem).toBe(expected);
    expect(problem).not.toContain('secret-but-not-pem');
  });
});
