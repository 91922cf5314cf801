import { EnvValidationError } from '@app/plugin-kit';
import { startHarness, StandInServer, type PluginHarness } from '@app/local-agent';
import { buildTriggerPlugin } from '../src/build-trigger.plugin.js';
import { PROVIDERS } from '../src/providers/index.js';
import { GitHubStandIn } from '../stand-ins/github/github.stand-in.js';
import { GitLabStandIn } from '../stand-ins/gitlab/gitlab.stand-in.js';
import { JenkinsStandIn } from '../stand-ins/jenkins/jenkins.stand-in.js';
import { buildRequest, drive, uid } from './drive.js';

/** The providers, as the body's "exactly one provider block" names them: the table's keys in its order. */
const KEYS = PROVIDERS.keys.join(', ');

const SECRETS = {
  jenkins: 'jenkins-default-token-0a1b2c3d',
  jenkinsProd: 'jenkins-prod-token-4e5f6a7b8c',
  github: 'ghp_configTESTconfigTESTconfig0001',
  gitlab: 'glpat-configTESTconfig01',
};

describe('build plugin: configuration, server choice and secrets', () => {
  const elsewhere = new StandInServer('elsewhere', () => ({ status: 200, body: {} }));
  // Jenkins reports build URLs on another host (its configured root URL): they must never be called.
  const jenkins = new JenkinsStandIn({
    user: 'bot',
    apiToken: SECRETS.jenkins,
    rootUrl: 'http://127.0.0.1:1/',
  });
  const jenkinsProd = new JenkinsStandIn({ user: 'prod-bot', apiToken: SECRETS.jenkinsProd });
  const github = new GitHubStandIn({ token: SECRETS.github }).addWorkflow('acme/web', {
    id: 1,
    file: 'ci.yml',
    inputs: { argo_key: {} },
    runName: '${{ inputs.argo_key }}',
  });
  const gitlab = new GitLabStandIn({ token: SECRETS.gitlab }).addProject({ id: 7, path: 'acme/deploy' });
  let h: PluginHarness;
  const env = () => ({
    JENKINS_URL: jenkins.url,
    JENKINS_USER: 'bot',
    JENKINS_API_TOKEN: SECRETS.jenkins,
    JENKINS_PROD_URL: jenkinsProd.url,
    JENKINS_PROD_USER: 'prod-bot',
    JENKINS_PROD_API_TOKEN: SECRETS.jenkinsProd,
    GITHUB_TOKEN: SECRETS.github,
    GITHUB_API_URL: github.apiUrl,
    GITLAB_URL: gitlab.url,
    GITLAB_TOKEN: SECRETS.gitlab,
  });
  const request = (body: Record<string, unknown>) => buildRequest(body, { workflow: { uid: uid() } });
  const message = async (body: Record<string, unknown>) => (await h.execute(request(body))).body.node;

  beforeAll(async () => {
    jenkins.addJob('app', { parameters: ['ARGO_KEY'] });
    jenkinsProd.addJob('app', { parameters: ['ARGO_KEY'] });
    await Promise.all([
      elsewhere.start(),
      jenkins.start(),
      jenkinsProd.start(),
      github.start(),
      gitlab.start(),
    ]);
    h = await startHarness(buildTriggerPlugin, { env: env() });
  });
  afterAll(async () => {
    await h.close();
    await Promise.all([
      elsewhere.close(),
      jenkins.close(),
      jenkinsProd.close(),
      github.close(),
      gitlab.close(),
    ]);
  });

  it.each([
    [{}, `build: invalid config: body: exactly one provider block is required (${KEYS}); got none`],
    [
      { jenkins: { job: 'app' }, gitlab: { project: 1, ref: 'main' } },
      `build: invalid config: body: exactly one provider block is required (${KEYS}); got jenkins and gitlab`,
    ],
    [
      { jenkins: { job: 'app' }, pollInterval: 30 },
      'build: invalid config: pollInterval: must be a Go duration such as 30s or 1m30s between 1s and 24h0m0s',
    ],
    [{ jenkins: { job: 'app', params: {} } }, 'build: invalid config: jenkins.params: unknown field'],
    [
      { github: { repo: 'acme/web', workflow: 'ci.yml' } },
      'build: invalid config: github.ref: must be a branch or tag name',
    ],
    [
      { gitlab: { project: 'acme/deploy', ref: 'main' }, server: 'nowhere' },
      'build: invalid config: server: no gitlab server "nowhere" for namespace argo (known: default (no server)); the admin adds one with GITLAB_NOWHERE_URL and GITLAB_NOWHERE_TOKEN or GITLAB_NOWHERE_TRIGGER_TOKEN',
    ],
    [
      { jenkins: { job: 'app' }, server: 'qa' },
      'build: invalid config: server: no jenkins server "qa" for namespace argo (known: default (no server), prod); the admin adds one with JENKINS_QA_URL, JENKINS_QA_USER and JENKINS_QA_API_TOKEN',
    ],
  ])('an invalid body fails naming the field: %j', async (body, text) => {
    expect(await message(body)).toEqual({ phase: 'Failed', message: text });
  });

  describe('NAMESPACE_SCOPES: named servers restricted to namespaces', () => {
    let scoped: PluginHarness;
    beforeAll(async () => {
      scoped = await startHarness(buildTriggerPlugin, {
        env: { ...env(), NAMESPACE_SCOPES: 'jenkins/prod=release,ci-*; github/*=ci-web' },
      });
    });
    afterAll(() => scoped.close());
    const from = async (namespace: string, body: Record<string, unknown>) =>
      (await scoped.execute(buildRequest(body, { workflow: { uid: uid(), namespace } }))).body.node;

    it('a workflow of an allowed namespace uses the server', async () => {
      for (const namespace of ['release', 'ci-web']) {
        const before = jenkinsProd.server.calls.filter((c) => c.method === 'POST').length;
        expect((await from(namespace, { jenkins: { job: 'app' }, server: 'prod' }))?.phase).toBe('Running');
        expect(jenkinsProd.server.calls.filter((c) => c.method === 'POST')).toHaveLength(before + 1);
      }
    });

    it('another namespace gets Failed naming the field, listing only the servers open to it, and nothing is called', async () => {
      const before = jenkinsProd.server.calls.length;
      expect(await from('team-a', { jenkins: { job: 'app' }, server: 'prod' })).toEqual({
        phase: 'Failed',
        message:
          'build: invalid config: server: no jenkins server "prod" for namespace team-a (known: default (no server)); the admin adds one with JENKINS_PROD_URL, JENKINS_PROD_USER and JENKINS_PROD_API_TOKEN',
      });
      expect(jenkinsProd.server.calls).toHaveLength(before);
      // A name that does not exist reads the same: an author cannot tell a closed server from a missing one.
      expect((await from('team-a', { jenkins: { job: 'app' }, server: 'qa' }))?.message).toBe(
        'build: invalid config: server: no jenkins server "qa" for namespace team-a (known: default (no server)); the admin adds one with JENKINS_QA_URL, JENKINS_QA_USER and JENKINS_QA_API_TOKEN',
      );
      expect(await from('team-a', { github: { repo: 'acme/web', workflow: 'ci.yml', ref: 'main' } })).toEqual(
        {
          phase: 'Failed',
          message:
            'build: invalid config: server: no default github server for namespace team-a (the admin sets GITHUB_TOKEN (and GITHUB_API_URL for GitHub Enterprise)); choose one of: none',
        },
      );
    });

    it('a bad NAMESPACE_SCOPES stops the sidecar at start-up, naming the variable and the entry', async () => {
      await expect(
        startHarness(buildTriggerPlugin, { env: { ...env(), NAMESPACE_SCOPES: 'jenkins/prd=release' } }),
      ).rejects.toThrow(
        'NAMESPACE_SCOPES: "jenkins/prd=release": no jenkins server named prd is configured (configured: default, prod)',
      );
    });
  });

  it('a provider without credentials fails with a clear message', async () => {
    const only = await startHarness(buildTriggerPlugin, {
      env: { GITHUB_TOKEN: SECRETS.github, GITHUB_API_URL: github.apiUrl },
    });
    try {
      const reply = await only.execute(request({ jenkins: { job: 'app' } }));
      expect(reply.body.node?.message).toBe(
        'build: invalid config: no jenkins server is configured for this sidecar (the admin sets JENKINS_URL, JENKINS_USER and JENKINS_API_TOKEN)',
      );
    } finally {
      await only.close();
    }
  });

  it('refuses to start with an incomplete configuration, naming the variables', async () => {
    await expect(
      startHarness(buildTriggerPlugin, { env: { JENKINS_EU_URL: 'https://jenkins-eu', GITHUB_TOKEN: 'x' } }),
    ).rejects.toThrow(
      new EnvValidationError([
        'JENKINS_EU_USER, JENKINS_EU_API_TOKEN: required with the other JENKINS_EU_* variables',
      ]),
    );
    await expect(startHarness(buildTriggerPlugin, { env: {} })).rejects.toThrow(/no build server configured/);
  });

  it('server: prod uses the prod Jenkins and its credentials, and only the configured hosts are ever called', async () => {
    const run = await drive(h, request({ jenkins: { job: 'app' }, server: 'prod' }), jenkinsProd.server);
    expect(run.last.node?.phase).toBe('Succeeded');
    expect(jenkinsProd.builds('app')).toHaveLength(1);
    expect(
      jenkinsProd.server.calls.every(
        (c) =>
          c.headers.authorization ===
          `Basic ${Buffer.from(`prod-bot:${SECRETS.jenkinsProd}`).toString('base64')}`,
      ),
    ).toBe(true);
    // the default server's builds link to another host (its root URL); the plugin still only talks to JENKINS_URL
    const defaults = await drive(h, request({ jenkins: { job: 'app' } }), jenkins.server);
    expect(defaults.last.node?.message).toContain('http://127.0.0.1:1/job/app/1/');
    expect(jenkins.builds('app')).toHaveLength(1);
  });

  it('a workflow body cannot send the credentials anywhere else', async () => {
    const host = elsewhere.url.replace('http://', '');
    const attempts = [
      { jenkins: { job: `${elsewhere.url}/steal` } },
      { jenkins: { job: `//${host}/steal` } },
      { jenkins: { job: '../../crumbIssuer' } },
      { github: { repo: `${host}/steal`, workflow: 'ci.yml', ref: 'main' } },
      { github: { repo: 'acme/web', workflow: `${elsewhere.url}/x.yml`, ref: 'main' } },
      { gitlab: { project: `${elsewhere.url}/x`, ref: 'main' } },
      { gitlab: { project: 'acme/deploy', ref: 'main' }, url: elsewhere.url },
      { gitlab: { project: 'acme/deploy', ref: 'main' }, server: elsewhere.url },
    ];
    for (const body of attempts) {
      const node = await message(body);
      expect(node?.phase).toBe('Failed');
    }
    expect(elsewhere.calls).toHaveLength(0);
    expect(jenkins.server.calls.some((c) => c.path.includes('crumbIssuer'))).toBe(false);
  });

  it('never shows a credential in a log line, a node message or an output, even when the upstream echoes it', async () => {
    gitlab.server.faults.add({
      kind: 'status',
      status: 400,
      body: { message: `token ${SECRETS.gitlab} is not allowed here` },
    });
    const echoed = await h.execute(request({ gitlab: { project: 'acme/deploy', ref: 'main' } }));
    expect(echoed.body.node?.message).toContain('[REDACTED]');
    await drive(h, request({ github: { repo: 'acme/web', workflow: 'ci.yml', ref: 'main' } }), github.server);
    await drive(h, request({ gitlab: { project: 'acme/deploy', ref: 'main' } }), gitlab.server);
    const everything = h.logText() + JSON.stringify(echoed.body);
    for (const secret of Object.values(SECRETS)) {
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(Buffer.from(`bot:${secret}`).toString('base64'));
    }
  });
});
