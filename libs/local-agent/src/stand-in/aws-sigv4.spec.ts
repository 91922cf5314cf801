import { verifySigV4 } from './aws-sigv4.js';
import type { StandInRequest } from './stand-in-request.js';

// The worked example of AWS's Signature Version 4 documentation (IAM ListUsers, 2015-08-30).
const KEY = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const SIGNATURE = '5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7';
const NOW = Date.parse('2015-08-30T12:36:00Z');

const request = (authorization: string, overrides: Partial<StandInRequest> = {}): StandInRequest => ({
  method: 'GET',
  path: '/',
  query: new URLSearchParams('Action=ListUsers&Version=2010-05-08'),
  headers: {
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    host: 'iam.amazonaws.com',
    'x-amz-date': '20150830T123600Z',
    authorization,
  },
  text: '',
  body: undefined,
  params: {},
  ...overrides,
});
const header = (signature = SIGNATURE, access = 'AKIDEXAMPLE') =>
  `AWS4-HMAC-SHA256 Credential=${access}/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=${signature}`;
const verify = (req: StandInRequest, now = NOW) =>
  verifySigV4(req, { keys: [KEY], region: 'us-east-1', service: 'iam', now });

describe('verifySigV4', () => {
  it("accepts the documentation's example signature", () => {
    expect(verify(request(header()))).toBeUndefined();
  });

  it('refuses a signature that another request, method or secret gives', () => {
    expect(
      verify(request(header(), { query: new URLSearchParams('Action=ListRoles&Version=2010-05-08') }))?.type,
    ).toBe('InvalidSignatureException');
    expect(verify(request(header(), { method: 'POST' }))?.type).toBe('InvalidSignatureException');
    expect(verify(request(header(), { text: '{}' }))?.type).toBe('InvalidSignatureException');
    expect(verify(request(header(SIGNATURE.replace(/^5/, '6'))))?.type).toBe('InvalidSignatureException');
  });

  it('refuses an unknown key, a missing header, another region or service, and an old signature', () => {
    expect(verify(request(header(SIGNATURE, 'AKIDOTHER')))).toMatchObject({
      status: 403,
      type: 'UnrecognizedClientException',
    });
    expect(verify(request('', { headers: { host: 'iam.amazonaws.com' } }))).toMatchObject({
      status: 403,
      type: 'MissingAuthenticationTokenException',
    });
    expect(
      verifySigV4(request(header()), { keys: [KEY], region: 'eu-west-1', service: 'iam', now: NOW })?.message,
    ).toMatch(/region/);
    expect(
      verifySigV4(request(header()), { keys: [KEY], region: 'us-east-1', service: 'glue', now: NOW })
        ?.message,
    ).toMatch(/service/);
    expect(verify(request(header()), NOW + 16 * 60_000)?.message).toMatch(/^Signature expired/);
  });

  it('requires the session token of temporary credentials', () => {
    const temporary = { ...KEY, sessionToken: 'FwoGZXIvYXdzEXAMPLE' };
    expect(
      verifySigV4(request(header()), { keys: [temporary], region: 'us-east-1', service: 'iam', now: NOW }),
    ).toMatchObject({
      type: 'UnrecognizedClientException',
    });
  });
});
