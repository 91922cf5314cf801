import { generateKeyPairSync } from 'node:crypto';
import { VertexPipelinesStandIn } from '../stand-ins/index.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  sharedSidecar,
  sleep,
  uniqueWorkflow,
  withSidecar,
} from './support.js';

const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const ACCOUNT = 'argo-runner@ml-prod-1234.iam.gserviceaccount.com';
const JOBS = '/v1/projects/ml-prod-1234/locations/europe-west4/pipelineJobs';
const KEY_LINES = keys.privateKey.split('\n').filter((l) => l.length > 40);
const template = (name: string) => ({
  templateUri: `https://europe-west4-kfp.pkg.dev/ml-prod-1234/pipelines/${name}/v3`,
});

describe('data-job: Vertex AI Pipelines', () => {
  const vertex = new VertexPipelinesStandIn({
    project: 'ml-prod-1234',
    region: 'europe-west4',
    serviceAccount: { clientEmail: ACCOUNT, keyId: 'k-0a1b2c', publicKey: keys.publicKey },
  });
  const env = (): Record<string, string> => ({
    VERTEX_PIPELINES_PROJECT: 'ml-prod-1234',
    VERTEX_PIPELINES_REGION: 'europe-west4',
    VERTEX_PIPELINES_URL: vertex.url,
    VERTEX_PIPELINES_CREDENTIALS: JSON.stringify({
      type: 'service_account',
      project_id: 'ml-prod-1234',
      private_key_id: 'k-0a1b2c',
      private_key: keys.privateKey,
      client_email: ACCOUNT,
      token_uri: vertex.tokenUri,
    }),
  });
  const h = sharedSidecar([vertex], env, () => {
    vertex.scripts.push(
      {
        match: '/long/',
        lifecycle: [{ state: 'PIPELINE_STATE_RUNNING', polls: 1000 }, { state: 'PIPELINE_STATE_SUCCEEDED' }],
      },
      {
        match: '/broken/',
        lifecycle: [
          { state: 'PIPELINE_STATE_RUNNING' },
          {
            state: 'PIPELINE_STATE_FAILED',
            message: 'The DAG failed because some tasks failed. The failed tasks are: [train-model].',
          },
        ],
      },
    );
  });
  const secrets = () => [...KEY_LINES, ...vertex.tokens.issued.keys()];

  it('creates the pipeline job once under its pipelineJobId, through a token from the key’s token_uri, and waits', async () => {
    const workflow = uniqueWorkflow();
    const pipelineJob = {
      ...template('train'),
      runtimeConfig: { gcsOutputDirectory: 'gs://ml/runs', parameterValues: { epochs: 3 } },
      labels: { team: 'ml' },
    };
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob({ vertexPipelines: { pipelineJob, name: 'train' } }, { workflow }),
      vertex.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    expect(vertex.server.count('POST', '/token')).toBe(1);
    expect(requestsPerCall[0]).toBe(2); // token, create (which answers the job)
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    const [job] = vertex.jobs;
    expect(job.id).toMatch(/^train-[0-9a-f]{32}$/);
    expect(job.request).toEqual({ ...pipelineJob, labels: { team: 'ml', 'argo-workflow': workflow.name } });
    expect(outputs(final)).toEqual({
      provider: 'vertexPipelines',
      runId: job.id,
      url: `https://console.cloud.google.com/vertex-ai/locations/europe-west4/pipelines/runs/${job.id}?project=ml-prod-1234`,
      state: 'succeeded',
      upstreamState: 'PIPELINE_STATE_SUCCEEDED',
      duration: expect.any(String),
    });
    expect(replies[0].node?.message).toMatch(
      /^Vertex AI Pipelines run train-[0-9a-f]{32} is queued \(PIPELINE_STATE_PENDING\)/,
    );
    expectNoSecrets(h, replies, secrets());
  });

  it('follows its pipeline job after a restart: the repeated create answers 409 ALREADY_EXISTS', async () => {
    const request = dataJob(
      { vertexPipelines: { pipelineJob: template('long') } },
      { workflow: uniqueWorkflow() },
    );
    const first = await h.execute(request);
    const runId = outputs(first.body).runId;
    await withSidecar(env(), async (restarted) => {
      const again = await restarted.execute(request);
      expect(outputs(again.body)).toMatchObject({ runId, upstreamState: 'PIPELINE_STATE_RUNNING' });
    });
    expect(vertex.jobs.filter((j) => j.id === runId)).toHaveLength(1);
    expect(vertex.server.count('GET', `${JOBS}/${runId}`)).toBeGreaterThan(0);
  });

  it('fails with the pipeline job’s error message', async () => {
    const { final } = await pollToEnd(
      h,
      dataJob({ vertexPipelines: { pipelineJob: template('broken') } }, { workflow: uniqueWorkflow() }),
      vertex.server,
    );
    expect(final.node?.phase).toBe('Failed');
    expect(final.node?.message).toMatch(
      /^Vertex AI Pipelines run argo-[0-9a-f]{32} failed \(PIPELINE_STATE_FAILED\): The DAG failed because some tasks failed\. The failed tasks are: \[train-model\]\. \(https:/,
    );
  });

  it('cancels the pipeline job on timeout, and rides out 429 with Retry-After', async () => {
    const request = dataJob(
      { vertexPipelines: { pipelineJob: template('long'), name: 'slow' }, timeout: '1s' },
      { workflow: uniqueWorkflow() },
    );
    const first = await h.execute(request);
    const runId = outputs(first.body).runId;
    vertex.rateLimitRoute('GET', `${JOBS}/${runId}`, 6, {
      error: {
        code: 429,
        message: 'Quota exceeded for aiplatform.googleapis.com',
        status: 'RESOURCE_EXHAUSTED',
      },
    });
    const limited = await h.execute(request);
    expect(limited.body.node?.message).toMatch(
      /429 Too Many Requests: Quota exceeded for aiplatform\.googleapis\.com \(RESOURCE_EXHAUSTED\); retrying in 6s/,
    );
    await sleep(1050);
    const reply = await h.execute(request);
    expect(reply.body.node?.message).toMatch(
      /^Vertex AI Pipelines run slow-[0-9a-f]{32} timed out after 1s and was cancelled \(last state PIPELINE_STATE_RUNNING\)/,
    );
    expect(vertex.job(runId)!.cancelled).toBe(true);
    expect(vertex.server.count('POST', `${JOBS}/${runId}:cancel`)).toBe(1);
  });

  it('returns at once with wait: false', async () => {
    const { replies, final } = await pollToEnd(
      h,
      dataJob(
        { vertexPipelines: { pipelineJob: template('long'), name: 'nowait' }, wait: false },
        { workflow: uniqueWorkflow() },
      ),
      vertex.server,
    );
    expect(replies).toHaveLength(1);
    expect(final.node?.phase).toBe('Succeeded');
    expect(outputs(final)).toMatchObject({
      provider: 'vertexPipelines',
      state: 'running',
      upstreamState: 'PIPELINE_STATE_RUNNING',
    });
  });

  it('fails with the API’s error body', async () => {
    const reply = await h.execute(
      dataJob({ vertexPipelines: { pipelineJob: { displayName: 'x' } } }, { workflow: uniqueWorkflow() }),
    );
    expect(reply.body.node?.message).toBe(
      `vertexPipelines: POST ${JOBS} → 400 Bad Request: Exactly one of pipeline_spec or template_uri must be set. (INVALID_ARGUMENT)`,
    );
  });
});
