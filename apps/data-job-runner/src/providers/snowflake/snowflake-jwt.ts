import { createHash, createPublicKey, sign, type KeyObject } from 'node:crypto';

/** Snowflake accepts a key-pair JWT valid for at most an hour. */
export const SNOWFLAKE_JWT_LIFETIME_S = 3600;
/** A JWT with less than this left is signed again, so that no request carries one about to expire. */
const RENEW_BEFORE_S = 300;

/** `SHA256:<base64 of the SHA-256 of the public key's DER>`: what `DESC USER` shows as RSA_PUBLIC_KEY_FP. */
export function publicKeyFingerprint(key: KeyObject): string {
  const der = createPublicKey(key).export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64')}`;
}

const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Snowflake's key-pair JWT: RS256, `iss` `<ACCOUNT>.<USER>.<fingerprint>`, `sub` `<ACCOUNT>.<USER>`, an hour
 * long. Signed once and reused until five minutes before it expires.
 */
export class SnowflakeJwt {
  private readonly fingerprint: string;
  private current?: { token: string; exp: number };

  constructor(
    private readonly account: string,
    private readonly user: string,
    private readonly key: KeyObject,
    private readonly now: () => number = Date.now,
  ) {
    this.fingerprint = publicKeyFingerprint(key);
  }

  token(): string {
    const iat = Math.floor(this.now() / 1000);
    if (this.current && this.current.exp - iat > RENEW_BEFORE_S) return this.current.token;
    const subject = `${this.account}.${this.user}`;
    const exp = iat + SNOWFLAKE_JWT_LIFETIME_S;
    const signed = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: `${subject}.${this.fingerprint}`, sub: subject, iat, exp })}`;
    const signature = sign('sha256', Buffer.from(signed), this.key).toString('base64url');
    this.current = { token: `${signed}.${signature}`, exp };
    return this.current.token;
  }
}
