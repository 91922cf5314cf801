import { motoUrl } from './same-steps.js';

/**
 * A raw call to moto: it picks the service by the credential scope of the Authorization header and does not
 * check the signature. For what the project has no SDK client for (IAM), and to see a reply as moto sends it.
 */
function motoCall(service: string, init: { headers: Record<string, string>; body: string }) {
  return fetch(`${motoUrl()}/`, {
    method: 'POST',
    headers: {
      Authorization: `AWS4-HMAC-SHA256 Credential=AKIAMOTO/20260101/eu-west-1/${service}/aws4_request, SignedHeaders=host, Signature=0`,
      ...init.headers,
    },
    body: init.body,
    signal: AbortSignal.timeout(10_000),
  });
}

/** An IAM role in moto (Batch checks that its compute environment's service role exists). */
export async function createMotoRole(name: string): Promise<string> {
  const reply = await motoCall('iam', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      Action: 'CreateRole',
      Version: '2010-05-08',
      RoleName: name,
      AssumeRolePolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [] }),
    }).toString(),
  });
  const text = await reply.text();
  const arn = /<Arn>([^<]+)<\/Arn>/.exec(text)?.[1];
  if (!reply.ok || !arn)
    throw new Error(`moto: IAM CreateRole ${name} → ${reply.status}: ${text.slice(0, 300)}`);
  return arn;
}

/**
 * Whether moto answers an AWS JSON-protocol operation as one it does not implement: its server raises
 * NotImplementedError, which reaches the client as a 500 with an HTML error page (an implemented operation
 * answers JSON, an error with `__type`).
 */
export async function motoLacks(
  service: string,
  target: string,
  jsonVersion: '1.0' | '1.1',
  input: object,
): Promise<boolean> {
  const reply = await motoCall(service, {
    headers: { 'X-Amz-Target': target, 'Content-Type': `application/x-amz-json-${jsonVersion}` },
    body: JSON.stringify(input),
  });
  const text = await reply.text();
  return (
    reply.status === 500 &&
    String(reply.headers.get('content-type')).startsWith('text/html') &&
    /<html/i.test(text)
  );
}
