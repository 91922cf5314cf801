import { generateKeyPairSync } from 'node:crypto';

const newPrivateKey = (): string =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  }).privateKey;

/**
 * A credential that is key material (a PEM private key, or a key file's JSON with one) in the same form with
 * another, freshly made key: a plugin checks such a credential's format at start, so a scrambled one would stop
 * it before any call. Undefined for any other value.
 */
export function otherKeyMaterial(value: string): string | undefined {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value) && !value.trimStart().startsWith('{'))
    return newPrivateKey();
  if (!value.trimStart().startsWith('{')) return undefined;
  try {
    const json = JSON.parse(value) as Record<string, unknown>;
    return typeof json.private_key === 'string'
      ? JSON.stringify({ ...json, private_key: newPrivateKey() })
      : undefined;
  } catch {
    return undefined;
  }
}
