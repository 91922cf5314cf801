import { createPrivateKey, type KeyObject } from 'node:crypto';
import { httpUrlProblem } from '@app/plugin-kit';

/** The fields of a service account key file (IAM → Service accounts → Keys → Add key → JSON) the notifier uses. */
export interface GoogleServiceAccount {
  clientEmail: string;
  /** The key's ID (`private_key_id`), sent as the JWT's `kid` when present. */
  keyId?: string;
  /** The PEM text as the file holds it. */
  privateKeyPem: string;
  privateKey: KeyObject;
  /** Where the signed assertion is exchanged for an access token: https://oauth2.googleapis.com/token. */
  tokenUri: string;
}

/**
 * The key file's JSON, validated: `type: service_account`, a `client_email`, an RSA `private_key` in PEM and
 * an http(s) `token_uri`. A problem names the field, never its value.
 */
export function parseServiceAccount(raw: string): { account?: GoogleServiceAccount; problem?: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { problem: 'must be the JSON key file of a service account (it is not JSON)' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { problem: 'must be the JSON key file of a service account (an object)' };
  const key = json as Record<string, unknown>;
  if (key.type !== 'service_account') return { problem: 'type: must be service_account' };
  const email = key.client_email;
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email))
    return { problem: 'client_email: must be the service account e-mail address' };
  const tokenUri = key.token_uri;
  if (typeof tokenUri !== 'string' || httpUrlProblem(tokenUri))
    return { problem: 'token_uri: must be an http(s) URL (https://oauth2.googleapis.com/token)' };
  const pem = key.private_key;
  if (typeof pem !== 'string' || !pem.includes('-----BEGIN PRIVATE KEY-----'))
    return { problem: 'private_key: must be a PEM private key (-----BEGIN PRIVATE KEY-----)' };
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    return { problem: 'private_key: is not a readable PEM private key' };
  }
  if (privateKey.asymmetricKeyType !== 'rsa')
    return { problem: 'private_key: must be an RSA key (service account keys are RSA)' };
  const keyId = typeof key.private_key_id === 'string' ? key.private_key_id : undefined;
  return { account: { clientEmail: email, keyId, privateKeyPem: pem, privateKey, tokenUri } };
}
