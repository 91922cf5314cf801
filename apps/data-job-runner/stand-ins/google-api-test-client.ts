// What the Google stand-ins' specs call them with: a service account's assertion, the token endpoint, the API.
import { sign, type KeyObject } from 'node:crypto';
import { GOOGLE_TOKEN_AUDIENCE } from './google-token.js';

const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** The RS256 assertion google-auth-library signs for a service account (kid `kid-1`), with `claims` over it. */
export function serviceAccountAssertion(
  email: string,
  key: KeyObject,
  claims: Record<string, unknown> = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const body = `${part({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' })}.${part({
    iss: email,
    scope: 'https://www.googleapis.com/auth/cloud-platform',
    aud: GOOGLE_TOKEN_AUDIENCE,
    iat: now,
    exp: now + 3600,
    ...claims,
  })}`;
  return `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`;
}

/** A client of one stand-in: its token endpoint (`grant`, `token`) and its API (`api`, JSON replies as `R`). */
export function googleApiClient<R>(
  standIn: { url: string; tokenUri: string },
  email: string,
  key: KeyObject,
) {
  const grant = async (assertion: string) => {
    const res = await fetch(standIn.tokenUri, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  return {
    grant,
    /** An access token for `scope` (default cloud-platform). */
    token: async (scope?: string) =>
      String((await grant(serviceAccountAssertion(email, key, scope ? { scope } : {}))).json.access_token),
    api: async (path: string, bearer: string, method = 'GET', body?: unknown) => {
      const res = await fetch(`${standIn.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as R };
    },
  };
}
