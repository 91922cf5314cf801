import { startHarness, type PluginHarness } from '@app/local-agent';
import { buildTriggerPlugin } from '../src/build-trigger.plugin.js';
import { JenkinsStandIn } from '../stand-ins/jenkins/jenkins.stand-in.js';
import { buildRequest, drive, outputs, sleep, uid } from './drive.js';

const USER = 'argo-bot';
const TOKEN = 'jenkins-api-token-6f1e9c2b7a';

describe('build plugin × Jenkins (harness)', () => {
  const jenkins = new JenkinsStandIn({
    user: USER,
    apiToken: TOKEN,
    rootUrl: 'https://jenkins.example.com/',
    queueRetentionMs: 60,
  });
  let h: PluginHarness;
  const env = () => ({
    JENKINS_URL: jenkins.url,
    JENKINS_USER: USER,
    JENKINS_API_TOKEN: TOKEN,
    UPSTREAM_TIMEOUT: '500ms',
  });
  const request = (body: Record<string, unknown>) =>
    buildRequest({ pollInterval: '7s', ...body }, { workflow: { uid: uid() } });

  beforeAll(async () => {
    jenkins
      .addJob('folder/app', {
        parameters: ['TARGET', 'ARGO_KEY'],
        queue: { polls: 1, why: 'Waiting for next available executor' },
        build: { polls: 1 },
      })
      .addJob('folder/broken', { parameters: ['ARGO_KEY'], results: ['FAILURE'] })
      .addJob('flaky', { parameters: ['ARGO_KEY'], results: ['UNSTABLE'] })
      .addJob('pipeline', {
        parameters: ['ARGO_KEY'],
        build: { polls: 2 },
        provisionalResult: 'UNSTABLE',
        results: ['SUCCESS'],
      })
      .addJob('plain', {})
      .addJob('no-key', { parameters: ['TARGET'], build: { polls: 3 } })
      .addJob('org/repo/feature%2Fx', { parameters: ['ARGO_KEY'] })
      .addJob('stuck-in-queue', {
        parameters: ['ARGO_KEY'],
        queue: { polls: 10_000, why: 'Waiting for next available executor on linux' },
      })
      .addJob('taken', { parameters: ['ARGO_KEY'], queue: { polls: 10_000 }, build: { polls: 10_000 } })
      .addJob('endless', { parameters: ['ARGO_KEY'], build: { polls: 10_000 } })
      .addJob('handoff', { parameters: ['ARGO_KEY'], handoffPolls: 2 })
      .addJob('disabled', { buildable: false });
    await jenkins.start();
    h = await startHarness(buildTriggerPlugin, { env: env() });
  });
  afterAll(async () => {
    await h.close();
    await jenkins.close();
  });
  beforeEach(() => jenkins.server.faults.clear());

  it('queues a build with its parameters and the correlation key, follows it to SUCCESS with one request per poll', async () => {
    const req = request({
      jenkins: { job: 'folder/app', parameters: { TARGET: 'staging', RETRIES: 3 } },
      key: 'x',
    });
    const undeclared = await h.execute(req);
    expect(undeclared.body.node).toEqual({
      phase: 'Failed',
      message:
        'build: invalid config: jenkins.parameters: job folder/app does not declare RETRIES (Jenkins would drop it)',
    });

    jenkins.server.resetCalls();
    const ok = request({ jenkins: { job: 'folder/app', parameters: { TARGET: 'staging' } } });
    const run = await drive(h, ok, jenkins.server);
    const trigger = jenkins.server.calls.find((c) => c.method === 'POST');
    expect(trigger?.path).toBe('/job/folder/job/app/buildWithParameters');
    expect(trigger?.body).toEqual({
      TARGET: 'staging',
      ARGO_KEY: expect.stringMatching(/^argo-[0-9a-f]{32}$/),
    });
    expect(trigger?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${USER}:${TOKEN}`).toString('base64')}`,
    );
    expect(run.replies[0]).toMatchObject({
      node: {
        phase: 'Running',
        message: expect.stringMatching(/^jenkins: folder\/app \(queue item \d+\) queued/),
      },
      requeue: '7s',
    });
    expect(run.replies[1].node?.message).toContain('queued (Waiting for next available executor)');
    expect(run.requestsPerPoll.every((n) => n === 1)).toBe(true);
    expect(run.last.node?.phase).toBe('Succeeded');
    expect(run.last.node?.message).toMatch(
      /^jenkins: folder\/app #\d+ finished SUCCESS after \d+s: https:\/\/jenkins\.example\.com\/job\/folder\/job\/app\/\d+\/$/,
    );
    expect(outputs(run.last)).toEqual({
      provider: 'jenkins',
      id: expect.stringMatching(/^\d+$/),
      url: expect.stringMatching(/^https:\/\/jenkins\.example\.com\/job\/folder\/job\/app\/\d+\/$/),
      status: 'succeeded',
      result: 'SUCCESS',
      duration: expect.stringMatching(/^\d+s$/),
    });
    // the build link uses Jenkins' root URL, but every API call went to the configured host
    expect(
      jenkins.server.calls.every((c) => c.path.startsWith('/job/') || c.path.startsWith('/queue/')),
    ).toBe(true);
  });

  it('FAILURE → Failed naming the result and linking the build', async () => {
    const run = await drive(h, request({ jenkins: { job: 'folder/broken' } }), jenkins.server);
    expect(run.last.node?.phase).toBe('Failed');
    expect(run.last.node?.message).toMatch(
      /^jenkins: folder\/broken #1 finished FAILURE after \d+s: https:\/\/jenkins\.example\.com\/job\/folder\/job\/broken\/1\/$/,
    );
    expect(outputs(run.last)).toMatchObject({ status: 'failed', result: 'FAILURE', id: '1' });
  });

  it('UNSTABLE is a failure unless unstableIsSuccess', async () => {
    const strict = await drive(h, request({ jenkins: { job: 'flaky' } }), jenkins.server);
    expect(strict.last.node?.phase).toBe('Failed');
    expect(strict.last.node?.message).toContain('finished UNSTABLE after');
    expect(strict.last.node?.message).toContain(
      'UNSTABLE counts as a failure; set unstableIsSuccess: true to accept it',
    );
    const lenient = await drive(
      h,
      request({ jenkins: { job: 'flaky' }, unstableIsSuccess: true }),
      jenkins.server,
    );
    expect(lenient.last.node?.phase).toBe('Succeeded');
    expect(outputs(lenient.last)).toMatchObject({ status: 'succeeded', result: 'UNSTABLE' });
  });

  it('waits for building:false before trusting a provisional result', async () => {
    const run = await drive(h, request({ jenkins: { job: 'pipeline' } }), jenkins.server);
    const running = run.replies.filter((r) => r.node?.message?.includes('pipeline #1 running'));
    expect(running.length).toBeGreaterThanOrEqual(2);
    expect(run.last.node?.phase).toBe('Succeeded');
  });

  it('uses /build for a job without parameters, and double-encodes a multibranch branch name', async () => {
    jenkins.server.resetCalls();
    expect((await drive(h, request({ jenkins: { job: 'plain' } }), jenkins.server)).last.node?.phase).toBe(
      'Succeeded',
    );
    expect(jenkins.server.calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/job/plain/build',
      body: undefined,
    });

    jenkins.server.resetCalls();
    const branch = await drive(
      h,
      request({ jenkins: { job: 'org/repo', branch: 'feature/x' } }),
      jenkins.server,
    );
    expect(branch.last.node?.phase).toBe('Succeeded');
    expect(branch.last.node?.message).toContain('org/repo [feature/x] #1 finished SUCCESS');
    expect(jenkins.server.calls.find((c) => c.method === 'POST')?.path).toBe(
      '/job/org/job/repo/job/feature%252Fx/buildWithParameters',
    );
  });

  it('keeps polling through the LeftItem handoff (executable still null)', async () => {
    const run = await drive(h, request({ jenkins: { job: 'handoff' } }), jenkins.server);
    expect(run.replies.some((r) => r.node?.message?.includes('queued (leaving the queue)'))).toBe(true);
    expect(run.last.node?.phase).toBe('Succeeded');
  });

  it('falls back to the builds list once the queue item has expired (404 after retention)', async () => {
    const req = request({ jenkins: { job: 'folder/app' } });
    await h.execute(req); // queued
    await h.execute(req); // the item leaves the queue
    await sleep(100); // retention (60ms here, 5 minutes in Jenkins) passes
    const expired = await h.execute(req);
    expect(expired.body.node?.message).toContain('queue item expired; looking the build up');
    expect(expired.body.requeue).toBe('5s');
    const found = await h.execute(req);
    expect(found.body.node?.message).toMatch(/folder\/app #\d+ running/);
    expect(jenkins.server.calls.at(-1)?.query).toContain('tree=builds');
    expect((await drive(h, req, jenkins.server)).last.node?.phase).toBe('Succeeded');
  });

  it('with wait: false succeeds as soon as the build is queued', async () => {
    const reply = await h.execute(
      request({ jenkins: { job: 'folder/app', parameters: { TARGET: 'nowait' } }, wait: false }),
    );
    expect(reply.body.node?.phase).toBe('Succeeded');
    expect(reply.body.node?.message).toMatch(
      /^jenkins: started folder\/app \(queue item \d+\), queued \(wait: false\)/,
    );
    expect(outputs(reply.body)).toMatchObject({ provider: 'jenkins', id: '', status: 'queued' });
  });

  it('cancels on timeout: cancelItem while queued, stop while building', async () => {
    const queued = request({ jenkins: { job: 'stuck-in-queue' }, timeout: '1s' });
    const building = request({ jenkins: { job: 'endless' }, timeout: '1s' });
    const leaving = request({
      jenkins: { job: 'endless' },
      timeout: '1s',
      key: 'left the queue since the last poll',
    });
    // Jenkins keeps a left item for 5 minutes (60ms in this file's stand-in): cancelItem then answers 422.
    const retaining = new JenkinsStandIn({ user: USER, apiToken: TOKEN }).addJob('endless', {
      parameters: ['ARGO_KEY'],
      build: { polls: 10_000 },
    });
    await retaining.start();
    const rh = await startHarness(buildTriggerPlugin, { env: { ...env(), JENKINS_URL: retaining.url } });
    await rh.execute(leaving);
    await rh.execute(leaving);
    expect((await h.execute(queued)).body.requeue).toBe('1s'); // never later than the timeout
    expect((await h.execute(queued)).body.node?.message).toContain(
      'queued (Waiting for next available executor on linux)',
    );
    await h.execute(building);
    await h.execute(building);
    expect((await h.execute(building)).body.node?.message).toMatch(/endless #1 running/);
    await h.execute(leaving);
    await h.execute(leaving); // the item leaves the queue on this read; the plugin has not seen the build yet
    await sleep(1100);
    const timedOut = await h.execute(queued);
    expect(timedOut.body.node?.phase).toBe('Failed');
    expect(timedOut.body.node?.message).toMatch(
      /^jenkins: stuck-in-queue \(queue item \d+\) timed out after 1s; cancelled https:\/\/jenkins\.example\.com\/job\/stuck-in-queue\/$/,
    );
    expect(jenkins.server.count('POST', '/queue/cancelItem')).toBe(1);
    const stopped = await h.execute(building);
    expect(stopped.body.node?.message).toBe(
      'jenkins: endless #1 timed out after 1s; cancelled https://jenkins.example.com/job/endless/1/',
    );
    expect(jenkins.server.count('POST', '/job/endless/1/stop')).toBe(1);
    expect(jenkins.builds('endless')[0]).toMatchObject({ building: false, result: 'ABORTED' });
    const late = await h.execute(leaving);
    expect(late.body.node?.message).toMatch(
      /^jenkins: endless \(queue item \d+\) timed out after 1s; cancelled https:\/\/jenkins\.example\.com\/job\/endless\/$/,
    );
    // the item is gone (404): the build is found by its queueId and stopped
    expect(jenkins.server.calls.filter((c) => c.path === '/queue/cancelItem').map((c) => c.status)).toEqual([
      204, 404,
    ]);
    expect(jenkins.builds('endless')[1]).toMatchObject({ building: false, result: 'ABORTED' });
    try {
      expect((await rh.execute(leaving)).body.node?.message).toMatch(/timed out after 1s; cancelled /);
      expect(
        retaining.server.calls.filter((c) => c.path === '/queue/cancelItem').map((c) => c.status),
      ).toEqual([422]);
      expect(retaining.builds('endless')[0]).toMatchObject({ building: false, result: 'ABORTED' });
    } finally {
      await rh.close();
      await retaining.close();
    }
    // the final outcome is repeated without asking Jenkins again
    const before = jenkins.server.calls.length;
    expect((await h.execute(building)).body.node?.message).toBe(stopped.body.node?.message);
    expect(jenkins.server.calls.length).toBe(before);
  });

  it('5xx, 429 and hangs while polling → Running with a longer requeue, then the build is followed to the end', async () => {
    const req = request({ jenkins: { job: 'folder/app' } });
    await h.execute(req);
    jenkins.server.faults.add({
      kind: 'status',
      status: 502,
      body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
    });
    const bad = await h.execute(req);
    expect(bad.body.node?.phase).toBe('Running');
    expect(bad.body.node?.message).toMatch(
      /^jenkins: GET \/queue\/item\/\d+\/api\/json → 502 Bad Gateway: 502 Bad Gateway; retrying in 7s/,
    );
    expect(bad.body.requeue).toBe('7s'); // at least the poll interval, not the kit's 5s first backoff
    jenkins.server.faults.add({ kind: 'rate-limit', retryAfterSeconds: 20 });
    expect((await h.execute(req)).body.requeue).toBe('20s');
    jenkins.server.faults.add({ kind: 'hang' });
    const hung = await h.execute(req);
    expect(hung.body.node?.message).toContain('timed out; retrying in');
    expect((await drive(h, req, jenkins.server)).last.node?.phase).toBe('Succeeded');
  });

  it('fetches a crumb only when Jenkins asks for one, and sends it with the session cookie', async () => {
    const strict = new JenkinsStandIn({ user: USER, apiToken: TOKEN, crumbRequired: true }).addJob('app', {
      parameters: ['ARGO_KEY'],
    });
    await strict.start();
    const sh = await startHarness(buildTriggerPlugin, { env: { ...env(), JENKINS_URL: strict.url } });
    try {
      const run = await drive(sh, request({ jenkins: { job: 'app' } }), strict.server);
      expect(run.last.node?.phase).toBe('Succeeded');
      const posts = strict.server.calls.filter((c) => c.method === 'POST');
      expect(posts.map((c) => c.status)).toEqual([403, 201]);
      expect(strict.server.count('GET', '/crumbIssuer/api/json')).toBe(1);
      expect(posts[1].headers['jenkins-crumb']).toMatch(/^[0-9a-f]{64}$/);
      expect(posts[1].headers.cookie).toMatch(/^JSESSIONID\.4f2a1c=[0-9a-f]+$/);
    } finally {
      await sh.close();
      await strict.close();
    }
  });

  it('turns Jenkins errors (HTML pages) into short messages without credentials', async () => {
    const missing = await h.execute(request({ jenkins: { job: 'nope/x' } }));
    expect(missing.body.node).toMatchObject({
      phase: 'Failed',
      message: 'jenkins: job nope/x not found (404)',
    });
    const disabled = await h.execute(request({ jenkins: { job: 'disabled' } }));
    expect(disabled.body.node?.message).toBe(
      'jenkins: job disabled is not buildable (409; is it disabled?): disabled is not buildable',
    );
    const wrong = await startHarness(buildTriggerPlugin, {
      env: { ...env(), JENKINS_API_TOKEN: 'wrong-token-123456' },
    });
    try {
      const denied = await wrong.execute(request({ jenkins: { job: 'folder/app' } }));
      expect(denied.body.node?.message).toBe(
        'jenkins: authentication failed (401): check the configured user and API token: Invalid password/token for user: argo-bot',
      );
      expect(wrong.logText()).not.toContain('wrong-token-123456');
      expect(wrong.logText()).not.toContain(Buffer.from(`${USER}:wrong-token-123456`).toString('base64'));
    } finally {
      await wrong.close();
    }
  });

  it('repeated and concurrent calls queue exactly one build', async () => {
    const req = request({ jenkins: { job: 'folder/app', parameters: { TARGET: 'concurrent' } } });
    const before = jenkins.queueItems('folder/app');
    const first = await Promise.all(Array.from({ length: 8 }, () => h.execute(req)));
    expect(first.every((r) => r.body.node?.phase === 'Running')).toBe(true);
    const run = await drive(h, req, jenkins.server);
    expect(run.last.node?.phase).toBe('Succeeded');
    await Promise.all(Array.from({ length: 4 }, () => h.execute(req)));
    expect(jenkins.queueItems('folder/app') - before).toBe(1);
    expect(jenkins.builds('folder/app').filter((b) => b.params.TARGET === 'concurrent')).toHaveLength(1);
  });

  describe('sidecar restarts', () => {
    const restart = async (old: PluginHarness): Promise<PluginHarness> => {
      await old.close();
      return startHarness(buildTriggerPlugin, { env: env() });
    };

    it('finds its build again by the ARGO_KEY parameter: still one build', async () => {
      const req = request({ jenkins: { job: 'folder/app', parameters: { TARGET: 'restart' } } });
      let a = await startHarness(buildTriggerPlugin, { env: env() });
      await a.execute(req);
      await a.execute(req);
      expect((await a.execute(req)).body.node?.message).toMatch(/#\d+ running/);
      a = await restart(a);
      try {
        const resumed = await a.execute(req);
        expect(resumed.body.node?.message).toMatch(/folder\/app #\d+ running/);
        expect(a.logs.some((l) => l.msg === 'found the build an earlier call started')).toBe(true);
        expect((await drive(a, req, jenkins.server)).last.node?.phase).toBe('Succeeded');
      } finally {
        await a.close();
      }
      expect(jenkins.builds('folder/app').filter((b) => b.params.TARGET === 'restart')).toHaveLength(1);
    });

    it('while still queued, the new sidecar finds the waiting item in the queue and triggers nothing', async () => {
      const req = request({ jenkins: { job: 'stuck-in-queue' } });
      let a = await startHarness(buildTriggerPlugin, { env: env() });
      const before = jenkins.queueItems('stuck-in-queue');
      const first = await a.execute(req);
      a = await restart(a);
      const posts = jenkins.server.calls.filter((c) => c.method === 'POST').length;
      try {
        const again = await a.execute(req);
        expect(again.body.node?.message).toMatch(/^jenkins: stuck-in-queue \(queue item \d+\) queued/);
        const item = (message?: string) => message?.match(/queue item \d+/)?.[0];
        expect(item(again.body.node?.message)).toBe(item(first.body.node?.message));
        expect(jenkins.server.calls.filter((c) => c.method === 'POST')).toHaveLength(posts);
        expect(jenkins.queueItems('stuck-in-queue') - before).toBe(1);
      } finally {
        await a.close();
      }
    });

    it("an item that leaves the queue between the new sidecar's reads is found as a build, not triggered again", async () => {
      const req = request({ jenkins: { job: 'taken' } });
      let a = await startHarness(buildTriggerPlugin, { env: env() });
      await a.execute(req);
      a = await restart(a);
      // An executor takes the item right after the new sidecar's first read of the job (a loaded machine).
      let jobRead = false;
      jenkins.server.faults.add(
        { kind: 'delay', ms: 0 },
        {
          match: (r) => {
            if (jobRead) jenkins.takeFromQueue('taken');
            jobRead ||= r.method === 'GET' && r.path === '/job/taken/api/json';
            return false; // watches only: never injects anything
          },
        },
      );
      try {
        const again = await a.execute(req);
        expect(again.body.node?.message).toMatch(/taken #1 running/);
      } finally {
        await a.close();
      }
      expect(jenkins.queueItems('taken')).toBe(1);
      expect(jenkins.builds('taken')).toHaveLength(1);
    });

    it('a job without the ARGO_KEY parameter cannot be found again once it left the queue (documented)', async () => {
      const req = request({ jenkins: { job: 'no-key', parameters: { TARGET: 'x' } } });
      let a = await startHarness(buildTriggerPlugin, { env: env() });
      await a.execute(req);
      await a.execute(req);
      await a.execute(req);
      a = await restart(a);
      try {
        await a.execute(req);
      } finally {
        await a.close();
      }
      expect(jenkins.queueItems('no-key')).toBe(2);
    });
  });
});
