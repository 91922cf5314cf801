// The stand-in must refuse what Google refuses, or the e2e tests prove nothing.
import { generateKeyPairSync } from 'node:crypto';
import { googleApiClient } from '../google-api-test-client.js';
import { VertexPipelinesStandIn } from './vertex-pipelines.stand-in.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const EMAIL = 'runner@proj-12345.iam.gserviceaccount.com';
const JOBS = '/v1/projects/proj-12345/locations/us-central1/pipelineJobs';
const TEMPLATE = { templateUri: 'https://us-central1-kfp.pkg.dev/proj-12345/pipelines/train/v1' };

interface Reply {
  name?: string;
  state?: string;
  pipelineJobs?: Array<{ name: string }>;
  nextPageToken?: string;
  error?: { code?: number; status?: string };
}

describe('Vertex AI Pipelines stand-in', () => {
  const vx = new VertexPipelinesStandIn({
    project: 'proj-12345',
    region: 'us-central1',
    serviceAccount: { clientEmail: EMAIL, keyId: 'kid-1', publicKey },
  });
  beforeAll(() => vx.start());
  afterAll(() => vx.close());

  const { token, api } = googleApiClient<Reply>(vx, EMAIL, privateKey);

  it('refuses a token it did not issue (401) and one without the cloud-platform scope (403)', async () => {
    expect((await api(JOBS, 'ya29.made-up')).json.error).toMatchObject({
      code: 401,
      status: 'UNAUTHENTICATED',
    });
    expect((await api(JOBS, await token('https://www.googleapis.com/auth/userinfo.email'))).status).toBe(403);
  });

  it('creates under the pipelineJobId, answers 409 ALREADY_EXISTS to a repeat, cancels once', async () => {
    const t = await token();
    const created = await api(`${JOBS}?pipelineJobId=train-1`, t, 'POST', TEMPLATE);
    expect(created.json).toMatchObject({ name: `${JOBS.slice(4)}/train-1`, state: 'PIPELINE_STATE_PENDING' });
    expect((await api(`${JOBS}?pipelineJobId=train-1`, t, 'POST', TEMPLATE)).json.error).toMatchObject({
      code: 409,
      status: 'ALREADY_EXISTS',
    });
    expect((await api(`${JOBS}/train-1`, t)).json.state).toBe('PIPELINE_STATE_PENDING');
    expect((await api(`${JOBS}/train-1:cancel`, t, 'POST', {})).status).toBe(200);
    await api(`${JOBS}/train-1`, t);
    expect((await api(`${JOBS}/train-1`, t)).json.state).toBe('PIPELINE_STATE_CANCELLED');
    expect((await api(`${JOBS}/train-1:cancel`, t, 'POST', {})).json.error?.status).toBe(
      'FAILED_PRECONDITION',
    );
  });

  it('refuses a bad id, an unknown field, neither or both of templateUri and pipelineSpec', async () => {
    const t = await token();
    expect((await api(`${JOBS}?pipelineJobId=Train_1`, t, 'POST', TEMPLATE)).status).toBe(400);
    expect((await api(`${JOBS}?pipelineJobId=x1`, t, 'POST', { ...TEMPLATE, state: 'x' })).status).toBe(400);
    expect((await api(`${JOBS}?pipelineJobId=x2`, t, 'POST', {})).json.error?.status).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await api(`${JOBS}?pipelineJobId=x3`, t, 'POST', { ...TEMPLATE, pipelineSpec: {} })).status).toBe(
      400,
    );
    expect((await api(`${JOBS}/nope`, t)).json.error?.status).toBe('NOT_FOUND');
  });

  it('lists pipeline jobs in pages', async () => {
    const t = await token();
    for (const id of ['p-1', 'p-2', 'p-3']) await api(`${JOBS}?pipelineJobId=${id}`, t, 'POST', TEMPLATE);
    const first = await api(`${JOBS}?pageSize=2`, t);
    expect(first.json.pipelineJobs).toHaveLength(2);
    const second = await api(`${JOBS}?pageSize=2&pageToken=${first.json.nextPageToken}`, t);
    expect(second.json.pipelineJobs!.length).toBeGreaterThan(0);
  });
});
