import { generateKeyPairSync } from 'node:crypto';
import { GOOGLE_TOKEN_URL, readGoogleCredentials } from './google-credentials.js';

const privateKey = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;
const read = (value: unknown) => {
  const problems: string[] = [];
  const credentials = readGoogleCredentials(
    'X_CREDENTIALS',
    typeof value === 'string' ? value : JSON.stringify(value),
    problems,
  );
  return { credentials, problems };
};
const account = {
  type: 'service_account',
  client_email: 'a@p.iam.gserviceaccount.com',
  private_key: privateKey,
};

describe('readGoogleCredentials', () => {
  it("reads a service-account key, its token_uri defaulting to Google's", () => {
    expect(read(account).credentials).toMatchObject({
      type: 'service_account',
      tokenUri: GOOGLE_TOKEN_URL,
      privateKey,
    });
    expect(
      read({ ...account, token_uri: 'https://private.googleapis.com/token' }).credentials?.tokenUri,
    ).toBe('https://private.googleapis.com/token');
  });

  it('reads an external-account configuration with a file or url credential source', () => {
    const wif = {
      type: 'external_account',
      audience:
        '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/k8s/providers/cluster',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: 'https://sts.googleapis.com/v1/token',
      credential_source: { file: '/var/run/secrets/tokens/gcp' },
    };
    expect(read(wif)).toMatchObject({ credentials: { type: 'external_account' }, problems: [] });
    expect(read({ ...wif, credential_source: { executable: { command: 'x' } } }).problems).toEqual([
      'X_CREDENTIALS: credential_source must name a file (the projected service account token) or a url',
    ]);
  });

  it.each([
    [
      'not JSON',
      'nope',
      'X_CREDENTIALS: must be the JSON of a service-account key or an external-account configuration',
    ],
    [
      'another type',
      { type: 'authorized_user' },
      'X_CREDENTIALS: type must be service_account or external_account',
    ],
    [
      'a key without its email',
      { ...account, client_email: '' },
      'X_CREDENTIALS: a service-account key needs client_email',
    ],
    [
      'a broken key',
      { ...account, private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' },
      'X_CREDENTIALS: private_key must be a PEM private key',
    ],
    [
      'a token_uri that is no URL',
      { ...account, token_uri: 'file:///etc/passwd' },
      `X_CREDENTIALS: token_uri must be an http(s) URL (${GOOGLE_TOKEN_URL})`,
    ],
  ])('refuses %s, naming the field and never its value', (_what, value, problem) => {
    expect(read(value).problems).toEqual([problem]);
  });
});
