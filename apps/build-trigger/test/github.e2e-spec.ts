import { startHarness, type PluginHarness } from '@app/local-agent';
import { buildTriggerPlugin } from '../src/build-trigger.plugin.js';
import { GitHubStandIn, type GitHubStandInOptions } from '../stand-ins/github/github.stand-in.js';
import { buildRequest, drive, outputs, sleep, uid } from './drive.js';

const TOKEN = 'ghp_e2eTOKENe2eTOKENe2eTOKENe2e0001';
const KEYED = {
  inputs: { environment: { required: true }, argo_key: {} },
  runName: 'Deploy ${{ inputs.environment }} ${{ inputs.argo_key }}',
};

function standIn(mode: GitHubStandInOptions['mode']): GitHubStandIn {
  return new GitHubStandIn({ token: TOKEN, mode })
    .addWorkflow('acme/web', { id: 1001, file: 'ci.yml', name: 'CI', refs: ['main', 'v1.0'], ...KEYED })
    .addWorkflow('acme/web', { id: 1002, file: 'fail.yml', ...KEYED, conclusions: ['failure'] })
    .addWorkflow('acme/web', { id: 1003, file: 'gated.yml', ...KEYED, waiting: { polls: 2 } })
    .addWorkflow('acme/web', { id: 1004, file: 'endless.yml', ...KEYED, inProgress: { polls: 10_000 } })
    .addWorkflow('acme/web', { id: 1005, file: 'quick.yml', ...KEYED, inProgress: { ms: 200 } })
    .addWorkflow('acme/web', { id: 1006, file: 'nokey.yml', inputs: { environment: {} } })
    .addWorkflow('acme/web', { id: 1007, file: 'late.yml', ...KEYED, appearAfter: { polls: 2 } })
    .addWorkflow('acme/web', { id: 1008, file: 'untitled.yml', inputs: KEYED.inputs });
}

const body = (workflow: string, extra: Record<string, unknown> = {}) => ({
  github: { repo: 'acme/web', workflow, ref: 'main', inputs: { environment: 'staging' } },
  pollInterval: '7s',
  ...extra,
});

describe('build plugin × GitHub Actions (harness)', () => {
  const github = standIn('dotcom');
  let h: PluginHarness;
  const env = (s: GitHubStandIn = github) => ({
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: s.apiUrl,
    UPSTREAM_TIMEOUT: '500ms',
    GITHUB_RUN_LOOKUP_TIMEOUT: '2s',
  });
  const request = (b: Record<string, unknown>) => buildRequest(b, { workflow: { uid: uid() } });

  beforeAll(async () => {
    await github.start();
    h = await startHarness(buildTriggerPlugin, { env: env() });
  });
  afterAll(async () => {
    await h.close();
    await github.close();
  });
  beforeEach(() => {
    github.server.faults.clear();
    github.resetRateLimit();
  });

  it('dispatches with run details, sends the required headers and string inputs, follows the run with one request per poll', async () => {
    github.server.resetCalls();
    const req = request({
      github: { repo: 'acme/web', workflow: 'ci.yml', ref: 'main', inputs: { environment: 'prod' } },
      pollInterval: '7s',
    });
    const run = await drive(h, req, github.server);
    const [lookup, dispatch] = github.server.calls;
    expect(lookup).toMatchObject({ method: 'GET', path: '/repos/acme/web/actions/workflows/ci.yml/runs' });
    expect(new URLSearchParams(lookup.query).get('event')).toBe('workflow_dispatch');
    expect(dispatch).toMatchObject({
      method: 'POST',
      path: '/repos/acme/web/actions/workflows/ci.yml/dispatches',
      status: 200,
    });
    expect(dispatch.body).toEqual({
      ref: 'main',
      inputs: { environment: 'prod', argo_key: expect.stringMatching(/^argo-[0-9a-f]{32}$/) },
      return_run_details: true,
    });
    expect(dispatch.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': expect.stringContaining('argo'),
    });
    expect(run.requestsPerPoll.every((n) => n === 1)).toBe(true);
    expect(run.replies[0].node?.message).toMatch(
      /^github: acme\/web ci\.yml run \d+ queued: https:\/\/github\.example\/acme\/web\/actions\/runs\/\d+$/,
    );
    expect(run.replies.some((r) => r.node?.message?.includes(' running: '))).toBe(true);
    expect(run.last.node?.phase).toBe('Succeeded');
    expect(run.last.node?.message).toMatch(
      /^github: acme\/web ci\.yml run \d+ finished success after \d+s: https:\/\/github\.example\//,
    );
    expect(outputs(run.last)).toEqual({
      provider: 'github',
      id: expect.stringMatching(/^\d+$/),
      url: expect.stringMatching(/^https:\/\/github\.example\/acme\/web\/actions\/runs\/\d+$/),
      status: 'succeeded',
      result: 'success',
      duration: expect.stringMatching(/^\d+s$/),
    });
  });

  it('accepts a numeric workflow id and a tag ref, and sends numbers and booleans as strings', async () => {
    github.server.resetCalls();
    const req = request({
      github: { repo: 'acme/web', workflow: 1001, ref: 'v1.0', inputs: { environment: 3 } },
    });
    expect((await drive(h, req, github.server)).last.node?.phase).toBe('Succeeded');
    const dispatch = github.server.calls.find((c) => c.method === 'POST');
    expect(dispatch?.path).toBe('/repos/acme/web/actions/workflows/1001/dispatches');
    expect((dispatch?.body as { inputs: Record<string, unknown> }).inputs.environment).toBe('3');
  });

  it('a failed conclusion → Failed naming it and linking the run', async () => {
    const run = await drive(h, request(body('fail.yml')), github.server);
    expect(run.last.node?.phase).toBe('Failed');
    expect(run.last.node?.message).toMatch(
      /^github: acme\/web fail\.yml run \d+ finished failure after \d+s: https:\/\/github\.example\//,
    );
    expect(outputs(run.last)).toMatchObject({ status: 'failed', result: 'failure' });
  });

  it('says when a run waits for an environment approval', async () => {
    const run = await drive(h, request(body('gated.yml')), github.server);
    expect(
      run.replies.some((r) =>
        r.node?.message?.includes('queued (waiting for a deployment review (environment protection rule))'),
      ),
    ).toBe(true);
    expect(run.last.node?.phase).toBe('Succeeded');
  });

  it('with wait: false succeeds right after the dispatch, with the run id', async () => {
    const reply = await h.execute(request(body('ci.yml', { wait: false })));
    expect(reply.body.node?.phase).toBe('Succeeded');
    expect(outputs(reply.body)).toMatchObject({
      provider: 'github',
      id: expect.stringMatching(/^\d+$/),
      status: 'queued',
    });
  });

  it('surfaces 422/404/401 messages, never the token', async () => {
    const noRef = await h.execute(
      request({
        github: { repo: 'acme/web', workflow: 'ci.yml', ref: 'nope', inputs: { environment: 'x' } },
      }),
    );
    expect(noRef.body.node).toEqual({
      phase: 'Failed',
      message: 'github: cannot dispatch acme/web ci.yml on nope (422): No ref found for: nope',
    });
    const noInput = await h.execute(
      request({ github: { repo: 'acme/web', workflow: 'ci.yml', ref: 'main' } }),
    );
    expect(noInput.body.node?.message).toBe(
      "github: cannot dispatch acme/web ci.yml on main (422): Required input 'environment' not provided",
    );
    const missing = await h.execute(
      request({ github: { repo: 'acme/web', workflow: 'gone.yml', ref: 'main' } }),
    );
    expect(missing.body.node?.message).toMatch(
      /^github: cannot list runs of acme\/web gone\.yml: not found \(404\): Not Found/,
    );
    const wrong = await startHarness(buildTriggerPlugin, {
      env: { ...env(), GITHUB_TOKEN: 'ghp_wrongwrongwrongwrong' },
    });
    try {
      const denied = await wrong.execute(request(body('ci.yml')));
      expect(denied.body.node?.message).toBe('github: authentication failed (401): Bad credentials');
      expect(wrong.logText()).not.toContain('ghp_wrongwrongwrongwrong');
    } finally {
      await wrong.close();
    }
  });

  it('rate limits lengthen the requeue instead of failing: primary (reset), secondary (retry-after), 429 without headers', async () => {
    const req = request(body('ci.yml'));
    await h.execute(req);
    github.exhaustRateLimit(90);
    const primary = await h.execute(req);
    expect(primary.body.node?.phase).toBe('Running');
    expect(primary.body.node?.message).toContain('403 Forbidden: API rate limit exceeded');
    expect(primary.body.node?.message).toContain('(rate limited; GitHub asks to wait 1m3');
    expect(primary.body.requeue).toMatch(/^1m(29|30|31)(\.\d+)?s$/);
    github.resetRateLimit();
    github.server.faults.add({
      kind: 'status',
      status: 403,
      headers: { 'retry-after': '30' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      },
    });
    expect((await h.execute(req)).body.requeue).toBe('30s');
    github.server.faults.add({ kind: 'status', status: 429, body: { message: 'Too many requests' } });
    expect((await h.execute(req)).body.requeue).toBe('1m0s');
    expect((await drive(h, req, github.server)).last.node?.phase).toBe('Succeeded');
  });

  it('5xx and resets while polling → Running at least one poll interval later, then success', async () => {
    const req = request(body('ci.yml'));
    await h.execute(req);
    github.server.faults.add({ kind: 'status', status: 503, body: { message: 'Service Unavailable' } });
    const bad = await h.execute(req);
    expect(bad.body).toMatchObject({ node: { phase: 'Running' }, requeue: '7s' });
    github.server.faults.add({ kind: 'reset' });
    expect((await h.execute(req)).body.node?.phase).toBe('Running');
    expect((await drive(h, req, github.server)).last.node?.phase).toBe('Succeeded');
  });

  it('cancels on timeout (202); a run that completed meanwhile (409 on cancel) is reported as it ended', async () => {
    const endless = request(body('endless.yml', { timeout: '1s' }));
    const quick = request(body('quick.yml', { timeout: '1s' }));
    await h.execute(endless);
    await h.execute(endless);
    await h.execute(quick);
    await h.execute(quick); // the quick run starts; it completes on its own within 200ms
    await sleep(1100);
    const cancelled = await h.execute(endless);
    expect(cancelled.body.node?.phase).toBe('Failed');
    expect(cancelled.body.node?.message).toMatch(
      /^github: acme\/web endless\.yml run \d+ timed out after 1s; cancelled https:\/\/github\.example\/acme\/web\/actions\/runs\/\d+$/,
    );
    expect(outputs(cancelled.body).status).toBe('cancelled');
    expect(github.runsOf('acme/web', 'endless.yml').at(-1)).toMatchObject({
      status: 'completed',
      conclusion: 'cancelled',
    });
    const completed = await h.execute(quick);
    expect(github.server.calls.filter((c) => c.path.endsWith('/cancel')).map((c) => c.status)).toEqual([
      202, 409,
    ]);
    expect(completed.body.node?.phase).toBe('Succeeded');
    expect(completed.body.node?.message).toContain('finished success');
  });

  it('repeated and concurrent calls dispatch exactly one run', async () => {
    const req = request(body('ci.yml', { key: 'concurrency' }));
    const before = github.runsOf('acme/web', 'ci.yml').length;
    await Promise.all(Array.from({ length: 8 }, () => h.execute(req)));
    expect((await drive(h, req, github.server)).last.node?.phase).toBe('Succeeded');
    await Promise.all(Array.from({ length: 4 }, () => h.execute(req)));
    expect(github.runsOf('acme/web', 'ci.yml').length - before).toBe(1);
  });

  it('a workflow without an argo_key input is dispatched again without it (and remembered)', async () => {
    github.server.resetCalls();
    const first = await drive(
      h,
      request({ github: { repo: 'acme/web', workflow: 'nokey.yml', ref: 'main' } }),
      github.server,
    );
    expect(first.last.node?.phase).toBe('Succeeded');
    expect(github.server.calls.filter((c) => c.method === 'POST').map((c) => c.status)).toEqual([422, 200]);
    expect(h.logs.some((l) => String(l.msg).includes('the workflow declares no argo_key input'))).toBe(true);
    github.server.resetCalls();
    await drive(
      h,
      request({ github: { repo: 'acme/web', workflow: 'nokey.yml', ref: 'main' } }),
      github.server,
    );
    expect(github.server.calls.filter((c) => c.method === 'POST').map((c) => c.status)).toEqual([200]);
    expect(github.server.count('GET', '/repos/acme/web/actions/workflows/nokey.yml/runs')).toBe(0); // nothing to look up
  });

  it('after a restart the run is found again by its run-name: still one run', async () => {
    const req = request(body('endless.yml', { key: 'restart' }));
    const before = github.runsOf('acme/web', 'endless.yml').length;
    let a = await startHarness(buildTriggerPlugin, { env: env() });
    try {
      await a.execute(req);
      await a.execute(req);
      await a.close();
      a = await startHarness(buildTriggerPlugin, { env: env() });
      const resumed = await a.execute(req);
      expect(resumed.body.node?.message).toMatch(/endless\.yml run \d+ running/);
      expect(a.logs.some((l) => l.msg === 'found the build an earlier call started')).toBe(true);
    } finally {
      await a.close();
    }
    expect(github.runsOf('acme/web', 'endless.yml').length - before).toBe(1);
  });

  describe.each([
    ['no-details', 'answers 204 even with return_run_details'],
    ['ghes', 'rejects return_run_details (GHES ≤ 3.20)'],
  ] as const)('%s: a server that %s', (mode, _what) => {
    const server = standIn(mode);
    let sh: PluginHarness;
    beforeAll(async () => {
      await server.start();
      sh = await startHarness(buildTriggerPlugin, { env: env(server) });
    });
    afterAll(async () => {
      await sh.close();
      await server.close();
    });

    it('finds the dispatched run by its argo_key run-name, even when it shows up late', async () => {
      server.server.resetCalls();
      const run = await drive(sh, request(body('late.yml')), server.server);
      expect(run.replies[0].node?.message).toBe(
        'github: acme/web late.yml queued (dispatched; looking for the run)',
      );
      expect(run.replies[0].requeue).toBe('5s');
      expect(run.last.node?.phase).toBe('Succeeded');
      const posts = server.server.calls.filter((c) => c.method === 'POST');
      expect(posts.map((c) => c.status)).toEqual(mode === 'ghes' ? [422, 204] : [204]);
      const lookups = server.server.calls.filter((c) => c.method === 'GET' && c.path.endsWith('/runs'));
      expect(new URLSearchParams(lookups.at(-1)!.query).get('created')).toMatch(
        /^>=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      );
      expect(server.runsOf('acme/web', 'late.yml')).toHaveLength(1);
    });

    it('remembers what the server supports and still runs exactly one build per execution', async () => {
      server.server.resetCalls();
      const req = request(body('ci.yml'));
      await Promise.all(Array.from({ length: 4 }, () => sh.execute(req)));
      expect((await drive(sh, req, server.server)).last.node?.phase).toBe('Succeeded');
      expect(server.server.calls.filter((c) => c.method === 'POST').map((c) => c.status)).toEqual([204]);
      expect(server.runsOf('acme/web', 'ci.yml')).toHaveLength(1);
    });

    it('fails with advice when the workflow has no argo_key input', async () => {
      const req = request({ github: { repo: 'acme/web', workflow: 'nokey.yml', ref: 'main' } });
      const reply = await sh.execute(req);
      expect(reply.body.node?.phase).toBe('Failed');
      expect(reply.body.node?.message).toMatch(
        /the server returned no run id and the workflow has no argo_key input, so the run cannot be followed/,
      );
    });
  });

  it('fails with advice when no run shows the key in its title within GITHUB_RUN_LOOKUP_TIMEOUT', async () => {
    const server = standIn('no-details');
    await server.start();
    const sh = await startHarness(buildTriggerPlugin, {
      env: { ...env(server), GITHUB_RUN_LOOKUP_TIMEOUT: '1s' },
    });
    try {
      const req = request(body('untitled.yml'));
      expect((await sh.execute(req)).body.node?.phase).toBe('Running');
      expect((await sh.execute(req)).body.node?.message).toContain('looking for the run');
      await sleep(1100);
      const gaveUp = await sh.execute(req);
      expect(gaveUp.body.node?.phase).toBe('Failed');
      expect(gaveUp.body.node?.message).toMatch(
        /^github: dispatched acme\/web untitled\.yml on main, but no run showing argo-[0-9a-f]{32} in its title appeared within 1s: give the workflow run-name: \$\{\{ inputs\.argo_key \}\}$/,
      );
    } finally {
      await sh.close();
      await server.close();
    }
  });
});
