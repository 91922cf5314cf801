// The vendor signature checks of Argo's webhook interceptor, for the vendors this emulator supports.
import { createHmac } from 'node:crypto';
import { sameSecret } from './same-secret.js';
import type { WebhookClient } from './tokens-file.js';

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** GitHub: `X-Hub-Signature-256: sha256=<hmac>` (or the older sha1 header); GitLab: `X-Gitlab-Token: <secret>`. */
export function webhookSignatureMatches(
  client: WebhookClient,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): boolean {
  if (client.type === 'gitlab') {
    const token = header(headers, 'x-gitlab-token');
    return token !== undefined && sameSecret(token, client.secret);
  }
  const sha256 = header(headers, 'x-hub-signature-256');
  if (sha256)
    return sameSecret(sha256, `sha256=${createHmac('sha256', client.secret).update(body).digest('hex')}`);
  const sha1 = header(headers, 'x-hub-signature');
  return (
    sha1 !== undefined &&
    sameSecret(sha1, `sha1=${createHmac('sha1', client.secret).update(body).digest('hex')}`)
  );
}
