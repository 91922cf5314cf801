import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { publicKeyFingerprint, SnowflakeJwt } from './snowflake-jwt.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const decode = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('SnowflakeJwt', () => {
  it('is an RS256 JWT for ACCOUNT.USER with the key fingerprint in iss, an hour long, signed with the key', () => {
    const jwt = new SnowflakeJwt('MYORG-ANALYTICS', 'ARGO_RUNNER', privateKey, () => 1_700_000_000_000);
    const [header, claims, signature] = jwt.token().split('.');
    expect(decode(header!)).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(decode(claims!)).toEqual({
      iss: `MYORG-ANALYTICS.ARGO_RUNNER.${publicKeyFingerprint(privateKey)}`,
      sub: 'MYORG-ANALYTICS.ARGO_RUNNER',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    const signed = Buffer.from(`${header}.${claims}`);
    expect(verify('sha256', signed, createPublicKey(privateKey), Buffer.from(signature!, 'base64url'))).toBe(
      true,
    );
  });

  it('is SHA256: and the base64 SHA-256 of the DER public key, as DESC USER shows RSA_PUBLIC_KEY_FP', () => {
    expect(publicKeyFingerprint(privateKey)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}=$/);
  });

  it('reuses a token until five minutes before it expires, then signs a new one', () => {
    let now = 1_700_000_000_000;
    const jwt = new SnowflakeJwt('A', 'U', privateKey, () => now);
    const first = jwt.token();
    now += 54 * 60_000;
    expect(jwt.token()).toBe(first);
    now += 2 * 60_000;
    expect(jwt.token()).not.toBe(first);
  });
});
