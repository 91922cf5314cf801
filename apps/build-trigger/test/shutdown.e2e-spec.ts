import { startHarness } from '@app/local-agent';
import { buildTriggerPlugin } from '../src/build-trigger.plugin.js';
import { GitLabStandIn } from '../stand-ins/gitlab/gitlab.stand-in.js';
import { buildRequest, uid } from './drive.js';

const TOKEN = 'glpat-shutdownTESTshutdown1';

describe('build plugin: SIGTERM and the builds it follows', () => {
  const gitlab = new GitLabStandIn({ token: TOKEN }).addProject({
    id: 1,
    path: 'acme/long',
    stages: [{ status: 'running', polls: 10_000 }],
  });
  const env = (cancel: string) => ({
    GITLAB_URL: gitlab.url,
    GITLAB_TOKEN: TOKEN,
    CANCEL_ON_SHUTDOWN: cancel,
  });
  beforeAll(() => gitlab.start());
  afterAll(() => gitlab.close());

  it.each([
    ['false', 'running', 'leaving the builds running (CANCEL_ON_SHUTDOWN is off)'],
    ['true', 'canceled', 'cancelled the build on shutdown'],
  ])('CANCEL_ON_SHUTDOWN=%s leaves the pipeline %s', async (cancel, status, logged) => {
    const h = await startHarness(buildTriggerPlugin, { env: env(cancel) });
    const req = buildRequest({ gitlab: { project: 'acme/long', ref: 'main' } }, { workflow: { uid: uid() } });
    await h.execute(req);
    await h.execute(req);
    const finished = buildRequest(
      { gitlab: { project: 'acme/long', ref: 'main' }, wait: false },
      { workflow: { uid: uid() } },
    );
    await h.execute(finished); // wait: false: not followed, never cancelled
    await h.close();
    const [followed, notFollowed] = gitlab.pipelinesOf('acme/long').slice(-2);
    expect(followed.status).toBe(status);
    expect(notFollowed.status).toBe('running');
    expect(h.logs.some((l) => l.msg === logged)).toBe(true);
  });
});
