import { generateKeyPairSync } from 'node:crypto';
import { readSnowflake, snowsightUrl } from './snowflake-settings.js';

const pem = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pass-phrase' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;

describe('readSnowflake', () => {
  it('reads a connection: the account URL, the JWT names in upper case, the decrypted key', () => {
    const { settings, problems } = readSnowflake({
      SNOWFLAKE_ACCOUNT: 'xy12345.eu-central-1',
      SNOWFLAKE_USER: 'argo_runner',
      SNOWFLAKE_PRIVATE_KEY: pem,
      SNOWFLAKE_PRIVATE_KEY_PASSPHRASE: 'pass-phrase',
    });
    expect(problems).toEqual([]);
    expect(settings.get('default')).toMatchObject({
      url: 'https://xy12345.eu-central-1.snowflakecomputing.com',
      account: 'XY12345',
      user: 'ARGO_RUNNER',
      consoleUrl: 'https://app.snowflake.com/eu-central-1/xy12345',
    });
    expect(settings.get('default')?.privateKey.asymmetricKeyType).toBe('rsa');
  });

  it('names each wrong variable, never the key', () => {
    const { problems } = readSnowflake({
      SNOWFLAKE_ACCOUNT: 'myorg-analytics',
      SNOWFLAKE_USER: 'argo',
      SNOWFLAKE_PRIVATE_KEY: pem,
      SNOWFLAKE_PRIVATE_KEY_PASSPHRASE: 'wrong',
      SNOWFLAKE_PROD_ACCOUNT: 'bad/account',
      SNOWFLAKE_PROD_USER: 'u',
      SNOWFLAKE_PROD_PRIVATE_KEY: 'x',
      SNOWFLAKE_EC_ACCOUNT: 'a',
      SNOWFLAKE_EC_USER: 'u',
      SNOWFLAKE_EC_PRIVATE_KEY: generateKeyPairSync('ec', {
        namedCurve: 'P-256',
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      }).privateKey,
      SNOWFLAKE_DEV_ACCOUNT: 'a',
    });
    expect(problems.sort()).toEqual([
      'SNOWFLAKE_DEV_PRIVATE_KEY: must be set (SNOWFLAKE_DEV_ACCOUNT is set)',
      'SNOWFLAKE_DEV_USER: must be set (SNOWFLAKE_DEV_ACCOUNT is set)',
      "SNOWFLAKE_EC_PRIVATE_KEY: must be an RSA key (Snowflake's key-pair authentication)",
      'SNOWFLAKE_PRIVATE_KEY: must be a PEM private key (PKCS#8, encrypted with SNOWFLAKE_PRIVATE_KEY_PASSPHRASE or not)',
      'SNOWFLAKE_PROD_ACCOUNT: must be an account identifier (orgname-accountname or a locator)',
    ]);
  });

  it("derives Snowsight's address of the account where it can", () => {
    expect(snowsightUrl('MyOrg-Analytics')).toBe('https://app.snowflake.com/myorg/analytics');
    expect(snowsightUrl('xy12345.us-east-2.aws')).toBe('https://app.snowflake.com/us-east-2.aws/xy12345');
    expect(snowsightUrl('xy12345')).toBeUndefined();
  });
});
