import { request } from 'node:http';
import { GitHubStandIn } from './github/github.stand-in.js';
import { GitLabStandIn } from './gitlab/gitlab.stand-in.js';
import { JenkinsStandIn } from './jenkins/jenkins.stand-in.js';

/** The stand-ins refuse what the real APIs refuse (a fake that accepts anything proves nothing). */
async function call(url: string, init: RequestInit & { json?: unknown; form?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }
  if (init.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(url, { ...init, headers, body, redirect: 'manual' });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}

describe('Jenkins stand-in', () => {
  const jenkins = new JenkinsStandIn({ user: 'u', apiToken: 'tok-123456' })
    .addJob('f/param', { parameters: ['A', 'ARGO_KEY'], queue: { polls: 100 } })
    .addJob('plain', { queue: { polls: 100 } });
  const auth = { Authorization: `Basic ${Buffer.from('u:tok-123456').toString('base64')}` };
  beforeAll(() => jenkins.start());
  afterAll(() => jenkins.close());

  it('answers anonymous requests 403 and bad tokens 401, with HTML pages', async () => {
    const anonymous = await call(`${jenkins.url}/job/plain/api/json`);
    expect([anonymous.status, anonymous.headers.get('x-you-are-authenticated-as')]).toEqual([
      403,
      'anonymous',
    ]);
    const bad = await call(`${jenkins.url}/job/plain/api/json`, {
      headers: { Authorization: `Basic ${Buffer.from('u:nope').toString('base64')}` },
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    expect(bad.text).toContain('<h2>HTTP ERROR 401 Invalid password/token for user: u</h2>');
  });

  it('refuses /build on a parameterized job and buildWithParameters on a plain one (400), unknown jobs (404)', async () => {
    expect(
      (await call(`${jenkins.url}/job/f/job/param/build`, { method: 'POST', headers: auth })).text,
    ).toContain('Nothing is submitted');
    expect(
      (await call(`${jenkins.url}/job/f/job/param/build?A=1`, { method: 'POST', headers: auth })).text,
    ).toContain('This page expects a form submission');
    const notParameterized = await call(`${jenkins.url}/job/plain/buildWithParameters`, {
      method: 'POST',
      headers: auth,
    });
    expect([notParameterized.status, notParameterized.text.includes('plain is not parameterized')]).toEqual([
      400,
      true,
    ]);
    expect((await call(`${jenkins.url}/job/f/api/json`, { headers: auth })).status).toBe(404);
  });

  it('queues with 201 + Location, merges an identical waiting request (303), not a different one', async () => {
    const first = await call(`${jenkins.url}/job/f/job/param/buildWithParameters`, {
      method: 'POST',
      headers: auth,
      form: { A: '1', IGNORED: 'x' },
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/queue\/item\/\d+\/$/);
    const merged = await call(`${jenkins.url}/job/f/job/param/buildWithParameters`, {
      method: 'POST',
      headers: auth,
      form: { A: '1' },
    });
    expect([merged.status, merged.headers.get('location')]).toEqual([303, first.headers.get('location')]);
    const other = await call(`${jenkins.url}/job/f/job/param/buildWithParameters`, {
      method: 'POST',
      headers: auth,
      form: { A: '2' },
    });
    expect(other.status).toBe(201);
    expect(other.headers.get('location')).not.toBe(first.headers.get('location'));
    const plainFirst = await call(`${jenkins.url}/job/plain/build`, { method: 'POST', headers: auth });
    const plainAgain = await call(`${jenkins.url}/job/plain/build`, { method: 'POST', headers: auth });
    expect([plainAgain.status, plainAgain.headers.get('location')]).toEqual([
      201,
      plainFirst.headers.get('location'),
    ]);
    const item = await call(`${first.headers.get('location')}api/json?tree=id,why,params`, { headers: auth });
    expect(item.json()).toEqual({
      _class: 'hudson.model.Queue$WaitingItem',
      id: expect.any(Number),
      why: expect.any(String),
      params: '\nA=1\nARGO_KEY=',
    });
  });
});

describe('GitHub stand-in', () => {
  const github = new GitHubStandIn({ token: 'ghp_x' }).addWorkflow('o/r', {
    id: 1,
    file: 'ci.yml',
    inputs: { a: { required: true } },
  });
  const headers = {
    Authorization: 'Bearer ghp_x',
    'User-Agent': 'test',
    Accept: 'application/vnd.github+json',
  };
  const dispatch = (body: unknown, h: Record<string, string> = headers) =>
    call(`${github.apiUrl}/repos/o/r/actions/workflows/ci.yml/dispatches`, {
      method: 'POST',
      headers: h,
      json: body,
    });
  beforeAll(() => github.start());
  afterAll(() => github.close());

  it('requires a User-Agent and valid credentials', async () => {
    // fetch always sends a User-Agent; node:http sends none unless told to
    const noAgent = await new Promise<{ status?: number; text: string }>((resolve, reject) => {
      const req = request(
        `${github.apiUrl}/repos/o/r/actions/runs/1`,
        { headers: { Authorization: 'Bearer ghp_x' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode, text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(noAgent.status).toBe(403);
    expect(noAgent.text).toMatch(/make sure your request has a User-Agent header/);
    expect((await dispatch({ ref: 'main' }, { 'User-Agent': 't' })).json()).toMatchObject({
      message: 'Requires authentication',
      status: '401',
    });
    expect(
      (await dispatch({ ref: 'main' }, { ...headers, Authorization: 'Bearer nope' })).json(),
    ).toMatchObject({ message: 'Bad credentials' });
  });

  it('validates dispatches like GitHub (422) and answers 204 without, 200 with run details', async () => {
    expect((await dispatch({ ref: 'nope', inputs: { a: '1' } })).json()).toMatchObject({
      message: 'No ref found for: nope',
    });
    expect((await dispatch({ ref: 'main', inputs: {} })).json()).toMatchObject({
      message: "Required input 'a' not provided",
    });
    expect((await dispatch({ ref: 'main', inputs: { a: '1', b: '2' } })).json()).toMatchObject({
      message: 'Unexpected inputs provided: ["b"]',
    });
    expect((await dispatch({ ref: 'main', inputs: { a: '1', constructor: '2' } })).json()).toMatchObject({
      message: 'Unexpected inputs provided: ["constructor"]',
    });
    expect((await dispatch({ ref: 'main', inputs: { a: '1' }, extra: 1 })).json().message).toContain(
      '"extra" is not a permitted key.',
    );
    expect((await dispatch({ ref: 'main', inputs: { a: '1' } })).status).toBe(204);
    const details = await dispatch({ ref: 'main', inputs: { a: '1' }, return_run_details: true });
    expect(details.status).toBe(200);
    expect(details.json()).toEqual({
      workflow_run_id: expect.any(Number),
      run_url: expect.stringContaining('/actions/runs/'),
      html_url: expect.stringContaining('/actions/runs/'),
    });
    expect(details.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it('answers 403 with x-ratelimit-remaining: 0 once the budget is spent', async () => {
    github.exhaustRateLimit(60);
    const limited = await call(`${github.apiUrl}/repos/o/r/actions/runs/1`, { headers });
    expect([limited.status, limited.headers.get('x-ratelimit-remaining')]).toEqual([403, '0']);
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    github.resetRateLimit();
  });
});

describe('GitLab stand-in', () => {
  const gitlab = new GitLabStandIn({ token: 'glpat-x', triggerToken: 'glptt-x' }).addProject({
    id: 5,
    path: 'g/sub/p',
  });
  const auth = { 'PRIVATE-TOKEN': 'glpat-x' };
  beforeAll(() => gitlab.start());
  afterAll(() => gitlab.close());

  it('finds a project by id or by its path encoded exactly once', async () => {
    expect((await call(`${gitlab.url}/api/v4/projects/5/pipelines`, { headers: auth })).status).toBe(200);
    expect(
      (await call(`${gitlab.url}/api/v4/projects/g%2Fsub%2Fp/pipelines`, { headers: auth })).status,
    ).toBe(200);
    expect(
      (await call(`${gitlab.url}/api/v4/projects/g%252Fsub%252Fp/pipelines`, { headers: auth })).json(),
    ).toEqual({ message: '404 Project Not Found' });
    expect((await call(`${gitlab.url}/api/v4/projects/g/sub/p/pipelines`, { headers: auth })).status).toBe(
      404,
    );
  });

  it('refuses bad tokens and malformed creates with the real error shapes', async () => {
    expect(
      (
        await call(`${gitlab.url}/api/v4/projects/5/pipelines`, { headers: { 'PRIVATE-TOKEN': 'nope' } })
      ).json(),
    ).toEqual({ message: '401 Unauthorized' });
    const create = (json: unknown) =>
      call(`${gitlab.url}/api/v4/projects/5/pipeline`, { method: 'POST', headers: auth, json });
    expect((await create({})).json()).toEqual({ error: 'ref is missing' });
    expect((await create({ ref: 'nope' })).json()).toEqual({ message: { base: ['Reference not found'] } });
    expect((await create({ ref: 'main', variables: { A: '1' } })).json()).toEqual({
      error: 'variables is invalid',
    });
    expect((await create({ ref: 'main', variables: [{ key: 'A', value: '1' }] })).status).toBe(201);
  });

  it('takes the trigger token only on the trigger endpoint, in the form', async () => {
    const trigger = (form: Record<string, string>) =>
      call(`${gitlab.url}/api/v4/projects/5/trigger/pipeline`, { method: 'POST', form });
    expect((await trigger({ token: 'glpat-x', ref: 'main' })).json()).toEqual({ message: '404 Not Found' });
    const ok = await trigger({ token: 'glptt-x', ref: 'main', 'variables[X]': 'y' });
    expect([ok.status, ok.json().source]).toEqual([201, 'trigger']);
    const json = await call(`${gitlab.url}/api/v4/projects/5/trigger/pipeline`, {
      method: 'POST',
      json: { token: 'glptt-x', ref: 'main', variables: { X: 1 } },
    });
    expect(json.json()).toEqual({ error: 'variables needs to be a map of key-valued strings' });
  });

  it('cancels with 200 whatever the state, and paginates lists with x-* headers', async () => {
    const id = gitlab.pipelinesOf('g/sub/p')[0].id;
    const first = await call(`${gitlab.url}/api/v4/projects/5/pipelines/${id}/cancel`, {
      method: 'POST',
      headers: auth,
    });
    const again = await call(`${gitlab.url}/api/v4/projects/5/pipelines/${id}/cancel`, {
      method: 'POST',
      headers: auth,
    });
    expect([first.status, first.json().status, again.status, again.json().status]).toEqual([
      200,
      'canceling',
      200,
      'canceled',
    ]);
    const page = await call(`${gitlab.url}/api/v4/projects/5/pipelines?per_page=1`, { headers: auth });
    expect([
      page.headers.get('x-total'),
      page.headers.get('x-next-page'),
      JSON.parse(page.text).length,
    ]).toEqual(['2', '2', 1]);
  });
});
