// The stand-in must refuse what Google refuses, or the e2e tests prove nothing.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { googleApiClient, serviceAccountAssertion } from '../google-api-test-client.js';
import { DataprocStandIn } from './dataproc.stand-in.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const EMAIL = 'runner@proj-12345.iam.gserviceaccount.com';
const now = () => Math.floor(Date.now() / 1000);

interface GoogleReply {
  name?: string;
  done?: boolean;
  state?: string;
  error?: { code?: number; status?: string };
  batches?: Array<{ name: string }>;
  nextPageToken?: string;
}

const assertion = (claims: Record<string, unknown> = {}, key: KeyObject = privateKey): string =>
  serviceAccountAssertion(EMAIL, key, claims);

describe('Dataproc stand-in and its Google token endpoint', () => {
  const dp = new DataprocStandIn({
    project: 'proj-12345',
    region: 'us-central1',
    serviceAccount: { clientEmail: EMAIL, keyId: 'kid-1', publicKey },
  });
  beforeAll(() => dp.start());
  afterAll(() => dp.close());

  const { grant: token, api } = googleApiClient<GoogleReply>(dp, EMAIL, privateKey);
  const base = '/v1/projects/proj-12345/locations/us-central1/batches';
  const pyspark = { pysparkBatch: { mainPythonFileUri: 'gs://b/x.py' } };

  it.each([
    ['another key', () => assertion({}, other), 'Invalid JWT Signature.'],
    [
      'another audience',
      () => assertion({ aud: 'https://example.com/token' }),
      'Invalid JWT: the audience is not the token endpoint.',
    ],
    [
      'an expired assertion',
      () => assertion({ iat: now() - 7200, exp: now() - 3600 }),
      expect.stringMatching(/^Invalid JWT: Token must be a short-lived token/),
    ],
    [
      'an assertion valid for two hours',
      () => assertion({ exp: now() + 7200 }),
      expect.stringMatching(/^Invalid JWT: Token must be a short-lived token/),
    ],
    ['another account', () => assertion({ iss: 'x@y.iam.gserviceaccount.com' }), 'Invalid JWT Signature.'],
  ])('refuses %s', async (_what, jwt, description) => {
    expect(await token(jwt())).toEqual({
      status: 400,
      json: { error: 'invalid_grant', error_description: description },
    });
  });

  it('issues a token the API accepts, and refuses any other with UNAUTHENTICATED', async () => {
    const issued = await token(assertion());
    expect(issued.json).toMatchObject({ token_type: 'Bearer', expires_in: 3599 });
    expect((await api(base, 'ya29.forged')).json.error?.status).toBe('UNAUTHENTICATED');
    expect((await api(base, String(issued.json.access_token))).status).toBe(200);
  });

  it('creates a batch as an operation: requestId returns the same one, a taken batchId 409, and pages the list', async () => {
    const bearer = String((await token(assertion())).json.access_token);
    const created = await api(`${base}?batchId=b-one&requestId=r1`, bearer, 'POST', pyspark);
    expect(created.json).toMatchObject({
      done: false,
      metadata: { batch: 'projects/proj-12345/locations/us-central1/batches/b-one' },
    });
    expect((await api(`${base}?batchId=b-one&requestId=r1`, bearer, 'POST', pyspark)).json.name).toBe(
      created.json.name,
    );
    const taken = await api(`${base}?batchId=b-one&requestId=r2`, bearer, 'POST', pyspark);
    expect([taken.status, taken.json.error?.status]).toEqual([409, 'ALREADY_EXISTS']);
    expect((await api(`${base}?batchId=B_bad`, bearer, 'POST', pyspark)).status).toBe(400);
    expect(
      (await api(`${base}?batchId=b-host`, bearer, 'POST', { ...pyspark, host: 'x' })).json.error?.status,
    ).toBe('INVALID_ARGUMENT');
    await api(`${base}?batchId=b-two&requestId=r3`, bearer, 'POST', pyspark);
    const page1 = await api(`${base}?pageSize=1`, bearer);
    expect(page1.json.batches).toHaveLength(1);
    const page2 = await api(`${base}?pageSize=1&pageToken=${page1.json.nextPageToken}`, bearer);
    expect([page2.json.batches![0].name.endsWith('/b-two'), page2.json.nextPageToken]).toEqual([
      true,
      undefined,
    ]);
  });

  it('cancels through the operation: CANCELLING, then CANCELLED, and an ended one is FAILED_PRECONDITION', async () => {
    const bearer = String((await token(assertion())).json.access_token);
    const { json: op } = await api(`${base}?batchId=b-cancel`, bearer, 'POST', pyspark);
    expect((await api(`/v1/${op.name}:cancel`, bearer, 'POST', {})).status).toBe(200);
    expect((await api(`${base}/b-cancel`, bearer)).json.state).toBe('CANCELLED');
    expect((await api(`/v1/${op.name}`, bearer)).json).toMatchObject({ done: true, error: { code: 1 } });
    const again = await api(`/v1/${op.name}:cancel`, bearer, 'POST', {});
    expect([again.status, again.json.error?.status]).toEqual([400, 'FAILED_PRECONDITION']);
  });
});
