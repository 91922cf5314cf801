import type { PluginHarness } from '@app/local-agent';
import { LivyStandIn, type LivyStandInOptions } from '../stand-ins/index.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  SECRETS,
  sharedSidecar,
  sleep,
  uniqueWorkflow,
  withSidecar,
  withStandIn,
} from './support.js';

const USER = 'livy-user';

/** A Livy of its own for one test, and a sidecar pointed at it. */
const withOwnLivy = (
  options: LivyStandInOptions,
  use: (livy: LivyStandIn, h: PluginHarness) => Promise<void>,
) => withStandIn(new LivyStandIn(options), (own) => withSidecar({ LIVY_URL: own.url }, (h) => use(own, h)));

describe('data-job: Livy', () => {
  const livy = new LivyStandIn({ username: USER, password: SECRETS.livyPassword });
  const env = (): Record<string, string> => ({
    LIVY_URL: livy.url,
    LIVY_USERNAME: USER,
    LIVY_PASSWORD: SECRETS.livyPassword,
  });
  const h = sharedSidecar([livy], env);

  it('submits the batch with args and conf intact under a unique name, and waits for success', async () => {
    const body = {
      livy: {
        file: 's3://jobs/etl.py',
        args: ['--date', '2024-01-01', '--limit', 100, '--dry-run', false],
        conf: { 'spark.executor.memory': '2g', 'spark.executor.instances': 4 },
        pyFiles: ['s3://jobs/lib.zip'],
        driverMemory: '1g',
        numExecutors: 2,
      },
    };
    const { replies, final, requestsPerCall } = await pollToEnd(
      h,
      dataJob(body, { workflow: uniqueWorkflow() }),
      livy.server,
    );
    expect(final.node?.phase).toBe('Succeeded');
    const batch = livy.created[livy.created.length - 1];
    expect(batch.request).toEqual({
      file: 's3://jobs/etl.py',
      args: ['--date', '2024-01-01', '--limit', '100', '--dry-run', 'false'],
      conf: { 'spark.executor.memory': '2g', 'spark.executor.instances': '4' },
      name: expect.stringMatching(/^argo-[0-9a-f]{24}$/),
      pyFiles: ['s3://jobs/lib.zip'],
      driverMemory: '1g',
      numExecutors: 2,
    });
    const post = livy.server.calls.find((c) => c.method === 'POST')!;
    expect(post.headers['x-requested-by']).toBeTruthy();
    expect(requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
    expect(outputs(final)).toEqual({
      provider: 'livy',
      runId: String(batch.id),
      url: `http://rm:8088/proxy/${batch.appId}/`,
      state: 'succeeded',
      upstreamState: 'success',
      duration: expect.any(String),
      appId: batch.appId,
    });
    expectNoSecrets(h, replies, [SECRETS.livyPassword]);
  });

  it('fails with the last log line and the log tail of a dead batch', async () => {
    await withOwnLivy(
      {
        lifecycle: [
          { state: 'starting' },
          { state: 'running', message: 'INFO DAGScheduler: Job 0 failed' },
          {
            state: 'dead',
            message:
              'Exception in thread "main" java.lang.IllegalStateException: input path s3://in/2024-01-01 is empty',
          },
        ],
      },
      async (failing, lh) => {
        const { final } = await pollToEnd(
          lh,
          dataJob(
            { livy: { file: 'local:/app.jar', className: 'com.example.Etl' } },
            { workflow: uniqueWorkflow() },
          ),
          failing.server,
        );
        expect(final.node?.phase).toBe('Failed');
        expect(final.node?.message).toMatch(
          /^Livy run 0 failed \(dead\): Exception in thread "main" java.lang.IllegalStateException: input path s3:\/\/in\/2024-01-01 is empty \(http:\/\/rm:8088/,
        );
        expect(outputs(final).logTail).toBe(
          'INFO SparkSubmit: Submitting local:/app.jar\nINFO DAGScheduler: Job 0 failed\nException in thread "main" java.lang.IllegalStateException: input path s3://in/2024-01-01 is empty',
        );
        expect(outputs(final).appId).toBe('application_1700000000000_0001');
        expect(failing.server.count('GET', '/batches/0/log')).toBe(1);
      },
    );
  });

  it('adopts its batch by name after a restart (duplicate-name 400), and starts one batch for concurrent calls', async () => {
    const request = dataJob(
      { livy: { file: 's3://jobs/long.py', name: 'nightly' } },
      { workflow: uniqueWorkflow() },
    );
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(request)));
    const runId = outputs(concurrent[0].body).runId;
    expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
    const name = livy.created.find((b) => String(b.id) === runId)!.name!;
    expect(name).toMatch(/^nightly-[0-9a-f]{24}$/);
    await withSidecar(env(), async (restarted) => {
      const again = await restarted.execute(request);
      expect(outputs(again.body).runId).toBe(runId);
      expect(livy.server.calls.some((c) => c.method === 'GET' && c.path === `/batches/${name}`)).toBe(true);
    });
    expect(livy.createdNamed(name)).toHaveLength(1);
  });

  it('deletes the batch on timeout, then fails', async () => {
    await withOwnLivy(
      { lifecycle: [{ state: 'running', polls: 1000 }, { state: 'success' }] },
      async (slow, sh) => {
        const request = dataJob(
          { livy: { file: 's3://x.py' }, timeout: '1s', pollInterval: '5s' },
          { workflow: uniqueWorkflow() },
        );
        expect((await sh.execute(request)).body.requeue).toBe('1s');
        await sleep(1050);
        const reply = await sh.execute(request);
        expect(reply.body.node?.message).toMatch(
          /^Livy run 0 timed out after 1s and was cancelled \(last state running\)/,
        );
        expect(slow.server.count('DELETE', '/batches/0')).toBe(1);
        expect(slow.batches).toHaveLength(0);
      },
    );
  });

  it('reports a batch Livy forgot (retention window passed) as a clear failure', async () => {
    await withOwnLivy(
      {
        retainMs: 30,
        lifecycle: [{ state: 'running' }, { state: 'success' }],
      },
      async (forgetful, fh) => {
        const request = dataJob({ livy: { file: 's3://x.py' } }, { workflow: uniqueWorkflow() });
        await fh.execute(request); // created: running
        expect(outputs((await fh.execute(request)).body).upstreamState).toBe('running'); // the batch succeeds right after this read
        await sleep(60);
        const reply = await fh.execute(request);
        expect(reply.body.node?.phase).toBe('Failed');
        expect(reply.body.node?.message).toMatch(
          /^Livy run 0 failed \(not found\): Livy no longer knows batch 0 \(retention\)/,
        );
      },
    );
  });

  it('does not mistake a reused id for its batch after Livy restarts without recovery', async () => {
    await withOwnLivy(
      {
        lifecycle: [{ state: 'running', polls: 1000 }, { state: 'success' }],
      },
      async (amnesiac, ah) => {
        const request = dataJob({ livy: { file: 's3://x.py' } }, { workflow: uniqueWorkflow() });
        expect(outputs((await ah.execute(request)).body).runId).toBe('0');
        amnesiac.restartWithoutRecovery();
        await fetch(`${amnesiac.url}/batches`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Requested-By': 'someone' },
          body: JSON.stringify({ file: 's3://other.py', name: 'someone-else' }),
        });
        const reply = await ah.execute(request);
        expect(reply.body.node?.message).toMatch(/Livy no longer knows batch 0/);
      },
    );
  });

  it('rides out 5xx, resets, hangs and "too many sessions" while starting and polling', async () => {
    const request = dataJob({ livy: { file: 's3://jobs/etl.py' } }, { workflow: uniqueWorkflow() });
    livy.server.faults.add({
      kind: 'status',
      status: 400,
      body: { msg: 'Rejected, too many sessions are being created!' },
    });
    const rejected = await h.execute(request);
    expect(rejected.body.node?.phase).toBe('Running');
    expect(rejected.body.node?.message).toMatch(/too many sessions.*retrying/);
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    livy.server.faults.add({ kind: 'status', status: 500, body: { msg: 'java.lang.NullPointerException' } });
    expect((await h.execute(request)).body.node?.message).toMatch(
      /500 Internal Server Error: java.lang.NullPointerException; retrying/,
    );
    livy.server.faults.add({ kind: 'hang' });
    expect((await h.execute(request)).body.node?.message).toMatch(/timed out; retrying/);
    livy.server.faults.add({ kind: 'reset' });
    expect((await h.execute(request)).body.node?.phase).toBe('Running');
    const { final } = await pollToEnd(h, request, livy.server);
    expect(final.node?.phase).toBe('Succeeded');
    expect(livy.created.filter((b) => String(b.id) === outputs(final).runId)).toHaveLength(1);
  });

  it('fails with Livy’s reason for a refused password, and names a bad body field', async () => {
    await withSidecar({ ...env(), LIVY_PASSWORD: 'wrong-livy-password' }, async (wrong) => {
      const reply = await wrong.execute(
        dataJob({ livy: { file: 's3://x.py' } }, { workflow: uniqueWorkflow() }),
      );
      expect(reply.body.node?.message).toBe('livy: POST /batches → 401 Unauthorized: Unauthorized');
      expectNoSecrets(wrong, [reply.body], ['wrong-livy-password']);
    });
    const bad = await h.execute(dataJob({ livy: { file: 's3://x.py', conf: { nested: { a: 1 } } } }));
    expect(bad.body.node?.message).toBe(
      'data-job: invalid config: livy.conf: must be an object of strings, numbers or booleans',
    );
  });

  it('masks the Basic credentials even when Livy echoes them in an error', async () => {
    const basic = Buffer.from(`${USER}:${SECRETS.livyPassword}`).toString('base64');
    livy.server.faults.add({
      kind: 'status',
      status: 400,
      body: { msg: `rejected header Authorization: Basic ${basic}` },
    });
    const reply = await h.execute(
      dataJob({ livy: { file: 's3://echo.py' } }, { workflow: uniqueWorkflow() }),
    );
    expect(reply.body.node?.message).toBe(
      'livy: POST /batches → 400 Bad Request: rejected header Authorization: Basic [REDACTED]',
    );
    expectNoSecrets(h, [reply.body], [basic]);
  });
});
