import { startHarness, type PluginHarness } from '@app/local-agent';
import { buildTriggerPlugin } from '../src/build-trigger.plugin.js';
import { GitLabStandIn } from '../stand-ins/gitlab/gitlab.stand-in.js';
import { buildRequest, drive, outputs, sleep, uid } from './drive.js';

const TOKEN = 'glpat-e2eTOKENe2eTOKEN0001';
const TRIGGER = 'glptt-e2eTRIGGERe2eTRIGGER01';

describe('build plugin × GitLab CI (harness)', () => {
  const gitlab = new GitLabStandIn({ token: TOKEN, triggerToken: TRIGGER })
    .addProject({ id: 42, path: 'acme/deploy', nameFromArgoKey: true })
    .addProject({ id: 43, path: 'acme/group/app' })
    .addProject({ id: 44, path: 'acme/failing', outcomes: ['failed'] })
    .addProject({ id: 45, path: 'acme/skipped', stages: [{ status: 'created' }], outcomes: ['skipped'] })
    .addProject({
      id: 46,
      path: 'acme/manual',
      stages: [{ status: 'running' }, { status: 'manual', polls: 2 }, { status: 'running' }],
    })
    .addProject({ id: 47, path: 'acme/endless', stages: [{ status: 'running', polls: 10_000 }] })
    .addProject({ id: 48, path: 'acme/norules', rulesPreventRun: true })
    .addProject({ id: 49, path: 'acme/warnings', warnings: true });
  let h: PluginHarness;
  const env = (extra: Record<string, string> = {}) => ({
    GITLAB_URL: gitlab.url,
    GITLAB_TOKEN: TOKEN,
    UPSTREAM_TIMEOUT: '500ms',
    ...extra,
  });
  const request = (b: Record<string, unknown>) =>
    buildRequest({ pollInterval: '7s', ...b }, { workflow: { uid: uid() } });
  const gl = (project: string | number, extra: Record<string, unknown> = {}) => ({
    gitlab: { project, ref: 'main' },
    ...extra,
  });

  beforeAll(async () => {
    await gitlab.start();
    h = await startHarness(buildTriggerPlugin, { env: env() });
  });
  afterAll(async () => {
    await h.close();
    await gitlab.close();
  });
  beforeEach(() => gitlab.server.faults.clear());

  it('creates the pipeline with its variables and ARGO_KEY, the path encoded exactly once, one request per poll', async () => {
    gitlab.server.resetCalls();
    const run = await drive(
      h,
      request({
        gitlab: { project: 'acme/deploy', ref: 'main', variables: { DEPLOY_ENV: 'staging', REPLICAS: 3 } },
      }),
      gitlab.server,
    );
    const [byName, recent, create] = gitlab.server.calls;
    expect(byName).toMatchObject({ method: 'GET', path: '/api/v4/projects/acme%2Fdeploy/pipelines' });
    expect(new URLSearchParams(byName.query).get('name')).toMatch(/^argo-[0-9a-f]{32}$/);
    expect(recent).toMatchObject({ method: 'GET', path: '/api/v4/projects/acme%2Fdeploy/pipelines' });
    expect(create).toMatchObject({
      method: 'POST',
      path: '/api/v4/projects/acme%2Fdeploy/pipeline',
      status: 201,
    });
    expect(create.headers['private-token']).toBe(TOKEN);
    expect(create.body).toEqual({
      ref: 'main',
      variables: [
        { key: 'DEPLOY_ENV', value: 'staging', variable_type: 'env_var' },
        { key: 'REPLICAS', value: '3', variable_type: 'env_var' },
        { key: 'ARGO_KEY', value: expect.stringMatching(/^argo-[0-9a-f]{32}$/), variable_type: 'env_var' },
      ],
    });
    expect(run.requestsPerPoll.every((n) => n === 1)).toBe(true);
    expect(run.replies.map((r) => r.node?.message?.replace(/ pipeline \d+/, ' pipeline N'))).toEqual([
      'gitlab: acme/deploy pipeline N queued: https://gitlab.example/acme/deploy/-/pipelines/' +
        outputs(run.last).id,
      'gitlab: acme/deploy pipeline N queued: https://gitlab.example/acme/deploy/-/pipelines/' +
        outputs(run.last).id,
      'gitlab: acme/deploy pipeline N queued (waiting for a runner): https://gitlab.example/acme/deploy/-/pipelines/' +
        outputs(run.last).id,
      'gitlab: acme/deploy pipeline N running: https://gitlab.example/acme/deploy/-/pipelines/' +
        outputs(run.last).id,
      expect.stringMatching(
        /^gitlab: acme\/deploy pipeline N finished success after \d+s: https:\/\/gitlab\.example\/acme\/deploy\/-\/pipelines\/\d+$/,
      ),
    ]);
    expect(run.last.node?.phase).toBe('Succeeded');
    expect(outputs(run.last)).toEqual({
      provider: 'gitlab',
      id: expect.stringMatching(/^\d+$/),
      url: expect.stringMatching(/^https:\/\/gitlab\.example\/acme\/deploy\/-\/pipelines\/\d+$/),
      status: 'succeeded',
      result: 'success',
      duration: expect.stringMatching(/^\d+s$/),
    });
    expect(
      gitlab.server.calls.every(
        (c) => !c.path.includes('%252F') && c.path.startsWith('/api/v4/projects/acme%2Fdeploy/'),
      ),
    ).toBe(true);
  });

  it('accepts a numeric project id', async () => {
    gitlab.server.resetCalls();
    expect((await drive(h, request(gl(42)), gitlab.server)).last.node?.phase).toBe('Succeeded');
    expect(gitlab.server.calls.find((c) => c.method === 'POST')?.path).toBe('/api/v4/projects/42/pipeline');
  });

  it('failed and skipped pipelines fail; a manual stage shows as blocked; success-with-warnings is named', async () => {
    const failedRun = await drive(h, request(gl('acme/failing')), gitlab.server);
    expect(failedRun.last.node?.message).toMatch(
      /^gitlab: acme\/failing pipeline \d+ finished failed after \d+s: https:/,
    );
    expect(failedRun.last.node?.phase).toBe('Failed');
    const skipped = await drive(h, request(gl('acme/skipped')), gitlab.server);
    expect(skipped.last.node).toMatchObject({
      phase: 'Failed',
      message: expect.stringContaining('finished skipped'),
    });
    const manual = await drive(h, request(gl('acme/manual')), gitlab.server);
    expect(
      manual.replies.filter((r) =>
        r.node?.message?.includes('running (blocked: waiting for a manual action)'),
      ),
    ).toHaveLength(2);
    expect(manual.last.node?.phase).toBe('Succeeded');
    const warned = await drive(h, request(gl('acme/warnings')), gitlab.server);
    expect(outputs(warned.last)).toMatchObject({ status: 'succeeded', result: 'success-with-warnings' });
  });

  it('surfaces GitLab error bodies as short messages', async () => {
    const noRef = await h.execute(request({ gitlab: { project: 'acme/deploy', ref: 'nope' } }));
    expect(noRef.body.node).toEqual({
      phase: 'Failed',
      message: 'gitlab: cannot create a pipeline for acme/deploy on nope (400): Reference not found',
    });
    const rules = await h.execute(request(gl('acme/norules')));
    expect(rules.body.node?.message).toBe(
      'gitlab: cannot create a pipeline for acme/norules on main (400): Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
    );
    const missing = await h.execute(request(gl('acme/nope')));
    expect(missing.body.node?.message).toBe(
      'gitlab: cannot list pipelines of acme/nope: not found (404): 404 Project Not Found',
    );
    const wrong = await startHarness(buildTriggerPlugin, {
      env: env({ GITLAB_TOKEN: 'glpat-wrongwrongwrong' }),
    });
    try {
      expect((await wrong.execute(request(gl('acme/deploy')))).body.node?.message).toBe(
        'gitlab: authentication failed (401): 401 Unauthorized',
      );
      expect(wrong.logText()).not.toContain('glpat-wrongwrongwrong');
    } finally {
      await wrong.close();
    }
  });

  it('cancels on timeout (cancel answers 200 with the pipeline)', async () => {
    const req = request(gl('acme/endless', { timeout: '1s' }));
    await h.execute(req);
    await h.execute(req);
    await sleep(1100);
    const timedOut = await h.execute(req);
    expect(timedOut.body.node?.phase).toBe('Failed');
    expect(timedOut.body.node?.message).toMatch(
      /^gitlab: acme\/endless pipeline \d+ timed out after 1s; cancelled https:\/\/gitlab\.example\/acme\/endless\/-\/pipelines\/\d+$/,
    );
    expect(outputs(timedOut.body)).toMatchObject({ status: 'cancelled', result: 'canceling' });
    expect(gitlab.pipelinesOf('acme/endless').at(-1)?.status).toBe('canceled');
  });

  it('429 without Retry-After and 5xx while polling → Running with a backoff, then success', async () => {
    const req = request(gl('acme/deploy'));
    await h.execute(req);
    gitlab.server.faults.add({
      kind: 'status',
      status: 429,
      body: 'Retry later',
      headers: { 'Content-Type': 'text/plain' },
    });
    const limited = await h.execute(req);
    expect(limited.body).toMatchObject({
      node: {
        phase: 'Running',
        message: expect.stringContaining('429 Too Many Requests: Retry later; retrying in 7s'),
      },
      requeue: '7s',
    });
    gitlab.server.faults.add({ kind: 'status', status: 500, body: { message: '500 Internal Server Error' } });
    expect((await h.execute(req)).body.requeue).toBe('10s'); // second consecutive failure: the kit's backoff doubles
    expect((await drive(h, req, gitlab.server)).last.node?.phase).toBe('Succeeded');
  });

  it('with wait: false succeeds right after creating the pipeline', async () => {
    const reply = await h.execute(request(gl('acme/deploy', { wait: false })));
    expect(reply.body.node?.phase).toBe('Succeeded');
    expect(outputs(reply.body)).toMatchObject({
      provider: 'gitlab',
      id: expect.stringMatching(/^\d+$/),
      status: 'queued',
      result: 'created',
    });
  });

  it('repeated and concurrent calls create exactly one pipeline', async () => {
    const req = request(gl('acme/deploy', { key: 'concurrency' }));
    const before = gitlab.pipelinesOf('acme/deploy').length;
    await Promise.all(Array.from({ length: 8 }, () => h.execute(req)));
    expect((await drive(h, req, gitlab.server)).last.node?.phase).toBe('Succeeded');
    await Promise.all(Array.from({ length: 4 }, () => h.execute(req)));
    expect(gitlab.pipelinesOf('acme/deploy').length - before).toBe(1);
  });

  describe('a trigger token', () => {
    it('starts pipelines through the trigger endpoint (form fields), follows them with the access token', async () => {
      const th = await startHarness(buildTriggerPlugin, { env: env({ GITLAB_TRIGGER_TOKEN: TRIGGER }) });
      try {
        gitlab.server.resetCalls();
        const run = await drive(
          th,
          request({ gitlab: { project: 'acme/group/app', ref: 'main', variables: { A: 'b c' } } }),
          gitlab.server,
        );
        expect(run.last.node?.phase).toBe('Succeeded');
        const create = gitlab.server.calls.find((c) => c.method === 'POST')!;
        expect(create.path).toBe('/api/v4/projects/acme%2Fgroup%2Fapp/trigger/pipeline');
        expect(create.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
        expect(create.body).toEqual({
          token: TRIGGER,
          ref: 'main',
          'variables[A]': 'b c',
          'variables[ARGO_KEY]': expect.stringMatching(/^argo-/),
        });
        expect(create.headers['private-token']).toBeUndefined();
        expect(gitlab.pipelinesOf('acme/group/app').at(-1)?.source).toBe('trigger');
        expect(th.logText()).not.toContain(TRIGGER);
      } finally {
        await th.close();
      }
    });

    it('alone can only start (wait: false); waiting needs an access token', async () => {
      const th = await startHarness(buildTriggerPlugin, {
        env: { GITLAB_URL: gitlab.url, GITLAB_TRIGGER_TOKEN: TRIGGER },
      });
      try {
        const before = gitlab.pipelinesOf('acme/deploy').length;
        const waiting = await th.execute(request(gl('acme/deploy')));
        expect(waiting.body.node).toEqual({
          phase: 'Failed',
          message:
            'build: invalid config: gitlab: following a pipeline needs an access token (GITLAB_TOKEN, scope read_api or api); only a trigger token is configured for server "default": set wait: false',
        });
        expect(gitlab.pipelinesOf('acme/deploy').length).toBe(before);
        const started = await th.execute(request(gl('acme/deploy', { wait: false })));
        expect(started.body.node?.phase).toBe('Succeeded');
        expect(gitlab.pipelinesOf('acme/deploy').length).toBe(before + 1);
      } finally {
        await th.close();
      }
    });
  });

  it('never adopts an unrelated pipeline when an older GitLab ignores the name filter', async () => {
    const old = new GitLabStandIn({ token: TOKEN, nameFilter: false }).addProject({
      id: 42,
      path: 'acme/deploy',
      nameFromArgoKey: true,
    });
    await old.start();
    const oh = await startHarness(buildTriggerPlugin, { env: env({ GITLAB_URL: old.url }) });
    try {
      expect((await drive(oh, request(gl('acme/deploy', { key: 'one' })), old.server)).last.node?.phase).toBe(
        'Succeeded',
      );
      expect((await drive(oh, request(gl('acme/deploy', { key: 'two' })), old.server)).last.node?.phase).toBe(
        'Succeeded',
      );
      expect(old.pipelinesOf('acme/deploy')).toHaveLength(2);
    } finally {
      await oh.close();
      await old.close();
    }
  });

  describe('sidecar restarts', () => {
    it.each([
      ['by pipeline name (workflow: name: $ARGO_KEY)', 'acme/deploy', 0],
      ['by the ARGO_KEY variable of recent pipelines', 'acme/group/app', 1],
    ])('finds the pipeline again %s: still one pipeline', async (_how, project, variableReads) => {
      const req = request(gl(project, { key: 'restart' }));
      const before = gitlab.pipelinesOf(project).length;
      let a = await startHarness(buildTriggerPlugin, { env: env() });
      try {
        await a.execute(req);
        await a.execute(req);
        await a.close();
        gitlab.server.resetCalls();
        a = await startHarness(buildTriggerPlugin, { env: env() });
        const resumed = await a.execute(req);
        expect(resumed.body.node?.phase).toBe('Running');
        expect(a.logs.some((l) => l.msg === 'found the build an earlier call started')).toBe(true);
        expect(gitlab.server.count('GET', /\/variables$/)).toBe(variableReads);
        expect(gitlab.server.count('POST', /\/pipeline$/)).toBe(0);
        expect((await drive(a, req, gitlab.server)).last.node?.phase).toBe('Succeeded');
      } finally {
        await a.close();
      }
      expect(gitlab.pipelinesOf(project).length - before).toBe(1);
    });
  });
});
