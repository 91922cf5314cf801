// The stand-in must refuse what Google refuses, or the e2e tests prove nothing.
import { generateKeyPairSync } from 'node:crypto';
import { googleApiClient } from '../google-api-test-client.js';
import { CloudRunStandIn } from './cloud-run.stand-in.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const EMAIL = 'runner@proj-12345.iam.gserviceaccount.com';
const JOBS = '/v2/projects/proj-12345/locations/us-central1/jobs';

interface Reply {
  name?: string;
  metadata?: { name?: string; template?: { containers?: Array<{ env?: unknown[]; args?: string[] }> } };
  conditions?: Array<{ type: string; state: string; executionReason?: string }>;
  executions?: Array<{ name: string }>;
  nextPageToken?: string;
  error?: { code?: number; status?: string; message?: string };
}

describe('Cloud Run stand-in', () => {
  const cr = new CloudRunStandIn({
    project: 'proj-12345',
    region: 'us-central1',
    serviceAccount: { clientEmail: EMAIL, keyId: 'kid-1', publicKey },
    jobs: [
      { name: 'orders', containers: [{ name: 'main', image: 'eu.gcr.io/p/orders:1', args: ['--all'] }] },
      {
        name: 'pair',
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      },
    ],
  });
  beforeAll(() => cr.start());
  afterAll(() => cr.close());

  const { token, api } = googleApiClient<Reply>(cr, EMAIL, privateKey);

  it('refuses a token it did not issue (401) and one without the cloud-platform scope (403)', async () => {
    expect((await api(`${JOBS}/orders/executions`, 'ya29.made-up')).json.error).toMatchObject({
      code: 401,
      status: 'UNAUTHENTICATED',
    });
    const narrow = await token('https://www.googleapis.com/auth/devstorage.read_only');
    expect((await api(`${JOBS}/orders/executions`, narrow)).status).toBe(403);
  });

  it('runs with overrides: an operation whose metadata is the execution, its template overridden', async () => {
    const t = await token();
    const run = await api(`${JOBS}/orders:run`, t, 'POST', {
      overrides: { containerOverrides: [{ args: ['--day', '1'], env: [{ name: 'K', value: 'v' }] }] },
    });
    expect(run.status).toBe(200);
    expect(run.json.name).toMatch(/^projects\/proj-12345\/locations\/us-central1\/operations\//);
    expect(run.json.metadata?.name).toMatch(/\/jobs\/orders\/executions\/orders-[0-9a-f]{5}$/);
    expect(run.json.metadata?.template?.containers?.[0]).toMatchObject({
      args: ['--day', '1'],
      env: [{ name: 'K', value: 'v' }],
    });
    const id = run.json.metadata!.name!.split('/').at(-1)!;
    const got = await api(`${JOBS}/orders/executions/${id}`, t);
    expect(got.json.conditions?.find((c) => c.type === 'Completed')?.state).toBe('CONDITION_PENDING');
    expect((await api(`${JOBS}/orders/executions/${id}:cancel`, t, 'POST', {})).status).toBe(200);
    await api(`${JOBS}/orders/executions/${id}`, t);
    const ended = await api(`${JOBS}/orders/executions/${id}`, t);
    expect(ended.json.conditions?.find((c) => c.type === 'Completed')).toMatchObject({
      state: 'CONDITION_FAILED',
      executionReason: 'CANCELLED',
    });
    expect((await api(`${JOBS}/orders/executions/${id}:cancel`, t, 'POST', {})).json.error?.status).toBe(
      'FAILED_PRECONDITION',
    );
  });

  it('answers Google error bodies: unknown job, unknown field, a nameless override of two containers', async () => {
    const t = await token();
    expect((await api(`${JOBS}/nope:run`, t, 'POST', {})).json.error).toMatchObject({
      code: 404,
      status: 'NOT_FOUND',
    });
    expect((await api(`${JOBS}/orders:run`, t, 'POST', { overrides: { image: 'x' } })).status).toBe(400);
    expect(
      (await api(`${JOBS}/pair:run`, t, 'POST', { overrides: { containerOverrides: [{ args: [] }] } })).json
        .error?.status,
    ).toBe('INVALID_ARGUMENT');
    expect(
      (await api(`/v2/projects/other-9999/locations/us-central1/jobs/orders:run`, t, 'POST', {})).status,
    ).toBe(403);
  });

  it('lists executions newest first, in pages', async () => {
    const t = await token();
    for (let i = 0; i < 3; i++) await api(`${JOBS}/orders:run`, t, 'POST', {});
    const first = await api(`${JOBS}/orders/executions?pageSize=2`, t);
    expect(first.json.executions).toHaveLength(2);
    expect(first.json.executions![0].name.split('/').at(-1)).toBe(cr.executions[0].id);
    const second = await api(`${JOBS}/orders/executions?pageSize=2&pageToken=${first.json.nextPageToken}`, t);
    expect(second.json.executions!.length).toBeGreaterThan(0);
    expect(second.json.nextPageToken).toBeUndefined();
  });
});
