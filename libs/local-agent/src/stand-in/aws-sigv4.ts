// AWS Signature Version 4 as a server checks it, written from AWS's specification ("Create a signed AWS API
// request"): the canonical request is rebuilt from what arrived, and the signature recomputed with the secret.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { StandInRequest } from './stand-in-request.js';

export interface AwsKey {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials: the X-Amz-Security-Token the request must carry. */
  sessionToken?: string;
}

/** Why a request is refused, in the words and codes of the AWS JSON protocols. */
export interface SigV4Refusal {
  status: 400 | 403;
  type:
    | 'MissingAuthenticationTokenException'
    | 'UnrecognizedClientException'
    | 'InvalidSignatureException'
    | 'IncompleteSignatureException';
  message: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** The clock skew AWS accepts between the signature's time and its own. */
const MAX_SKEW_MS = 5 * 60_000;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding: every byte but the unreserved characters A-Z a-z 0-9 - _ . ~ as %XX. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Each path segment encoded once more (services other than S3 sign the path as sent, encoded again). */
function canonicalUri(path: string): string {
  return path === '' ? '/' : path.split('/').map(uriEncode).join('/');
}

function canonicalQuery(query: URLSearchParams): string {
  return [...query]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function headerValue(req: StandInRequest, name: string): string | undefined {
  const value = req.headers[name];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value.join(',') : value).trim().replace(/\s+/g, ' ');
}

/** The signing key: HMAC chain over the date, the region, the service and `aws4_request`. */
export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/**
 * Checks the request's SigV4 `Authorization` header for `service` in `region` against the known keys:
 * undefined when the signature is the one the secret gives, else the refusal AWS would send.
 */
export function verifySigV4(
  req: StandInRequest,
  options: { keys: readonly AwsKey[]; region: string; service: string; now?: number },
): SigV4Refusal | undefined {
  const header = headerValue(req, 'authorization');
  if (header === undefined)
    return {
      status: 403,
      type: 'MissingAuthenticationTokenException',
      message: 'Missing Authentication Token',
    };
  const incomplete = (message: string): SigV4Refusal => ({
    status: 400,
    type: 'IncompleteSignatureException',
    message,
  });
  if (!header.startsWith(`${ALGORITHM} `))
    return incomplete(`Unsupported signature algorithm in ${header.split(' ')[0]}`);
  const fields = Object.fromEntries(
    header
      .slice(ALGORITHM.length + 1)
      .split(',')
      .map((part) => part.trim().split('=', 2) as [string, string]),
  );
  const { Credential: credential, SignedHeaders: signedHeaders, Signature: signature } = fields;
  if (!credential || !signedHeaders || !signature)
    return incomplete(
      "Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters.",
    );
  const [accessKeyId, date, region, service, terminator] = credential.split('/');
  const amzDate = headerValue(req, 'x-amz-date');
  if (!amzDate || !/^\d{8}T\d{6}Z$/.test(amzDate))
    return incomplete("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  const key = options.keys.find((k) => k.accessKeyId === accessKeyId);
  if (!key)
    return {
      status: 403,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  if (key.sessionToken !== undefined && headerValue(req, 'x-amz-security-token') !== key.sessionToken)
    return {
      status: 403,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  const invalid = (message: string): SigV4Refusal => ({
    status: 403,
    type: 'InvalidSignatureException',
    message,
  });
  if (terminator !== 'aws4_request' || date !== amzDate.slice(0, 8))
    return invalid(`Credential should be scoped to a valid date and end with aws4_request: ${credential}`);
  if (region !== options.region)
    return invalid(`Credential should be scoped to a valid region, not '${region}'.`);
  if (service !== options.service)
    return invalid(`Credential should be scoped to correct service: '${options.service}'.`);
  const signedAt = Date.parse(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  if (Math.abs((options.now ?? Date.now()) - signedAt) > MAX_SKEW_MS)
    return invalid(
      `Signature expired: ${amzDate} is now earlier or later than the time the server accepts (5 minutes).`,
    );
  const names = signedHeaders.split(';');
  if (!names.includes('host')) return invalid("'Host' must be a 'SignedHeader' in the AWS Authorization.");
  const canonicalHeaders = names.map((name) => `${name}:${headerValue(req, name) ?? ''}\n`).join('');
  const payloadHash = headerValue(req, 'x-amz-content-sha256') ?? sha256(req.text);
  const canonicalRequest = [
    req.method,
    canonicalUri(req.path),
    canonicalQuery(req.query),
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256(canonicalRequest)].join('\n');
  const expected = createHmac('sha256', signingKey(key.secretAccessKey, date, region, service))
    .update(stringToSign)
    .digest('hex');
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected)))
    return invalid(
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    );
  return undefined;
}
