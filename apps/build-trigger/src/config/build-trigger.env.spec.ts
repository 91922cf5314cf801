import { EnvValidationError, loadEnv } from '@app/plugin-kit';
import { BuildTriggerEnv, WITH_DEFAULTS } from './build-trigger.env.js';

const load = (source: Record<string, string>) => loadEnv(BuildTriggerEnv, source);
const problems = (source: Record<string, string>): string[] => {
  try {
    load(source);
  } catch (err) {
    if (err instanceof EnvValidationError) return err.problems;
    throw err;
  }
  throw new Error('expected the configuration to be refused');
};

describe('BuildTriggerEnv', () => {
  it('reads the default servers, with GitHub and GitLab defaults', () => {
    const env = load({
      JENKINS_URL: 'https://jenkins.example.com/ci/',
      JENKINS_USER: 'bot',
      JENKINS_API_TOKEN: 'jenkins-token-123',
      GITHUB_TOKEN: 'ghp_x',
      GITLAB_TOKEN: 'glpat-x',
    });
    expect(env.servers.jenkins.get('default')).toEqual({
      name: 'default',
      url: 'https://jenkins.example.com/ci',
      user: 'bot',
      apiToken: 'jenkins-token-123',
    });
    expect(env.servers.github.get('default')).toEqual({
      name: 'default',
      apiUrl: 'https://api.github.com',
      token: 'ghp_x',
    });
    expect(env.servers.gitlab.get('default')).toEqual({
      name: 'default',
      apiUrl: 'https://gitlab.com/api/v4',
      token: 'glpat-x',
      triggerToken: undefined,
    });
    expect(env.CANCEL_ON_SHUTDOWN).toBe(false);
  });

  it('reads named servers; GitHub Enterprise and a GitLab URL that already ends in /api/v4 work', () => {
    const env = load({
      JENKINS_PROD_EU_URL: 'https://jenkins-eu.example.com',
      JENKINS_PROD_EU_USER: 'bot',
      JENKINS_PROD_EU_API_TOKEN: 't1',
      GITHUB_GHE_TOKEN: 'ghp_ghe',
      GITHUB_GHE_API_URL: 'https://ghe.example.com/api/v3',
      GITLAB_SELF_URL: 'https://gitlab.example.com/api/v4/',
      GITLAB_SELF_TRIGGER_TOKEN: 'glptt-x',
      CANCEL_ON_SHUTDOWN: 'true',
    });
    expect(env.servers.jenkins.get('prod_eu')?.url).toBe('https://jenkins-eu.example.com');
    expect(env.servers.github.get('ghe')).toEqual({
      name: 'ghe',
      apiUrl: 'https://ghe.example.com/api/v3',
      token: 'ghp_ghe',
    });
    // _TRIGGER_TOKEN belongs to server SELF, not to a server called SELF_TRIGGER
    expect(env.servers.gitlab.get('self')).toEqual({
      name: 'self',
      apiUrl: 'https://gitlab.example.com/api/v4',
      token: undefined,
      triggerToken: 'glptt-x',
    });
    expect([...env.servers.gitlab.keys()]).toEqual(['self']);
    expect(env.CANCEL_ON_SHUTDOWN).toBe(true);
  });

  it('refuses to start without any build server', () => {
    expect(problems({})).toEqual([expect.stringMatching(/^no build server configured/)]);
    expect(problems({ GITHUB_API_URL: 'https://ghe.example.com/api/v3' })).toEqual([
      expect.stringMatching(/^no build server configured/),
    ]);
    expect(problems({ GITLAB_URL: 'https://gitlab.example.com' })).toEqual([
      expect.stringMatching(/^no build server configured/),
    ]);
  });

  it('takes the variables with a default, which configure no server alone, from the providers', () => {
    expect([...WITH_DEFAULTS].sort()).toEqual(['GITHUB_API_URL', 'GITHUB_RUN_LOOKUP_TIMEOUT', 'GITLAB_URL']);
    // A tuning variable set alone is no attempt at a server either (the hand-kept list had missed it).
    expect(problems({ GITHUB_RUN_LOOKUP_TIMEOUT: '5m' })).toEqual([
      expect.stringMatching(/^no build server configured/),
    ]);
  });

  it('names every incomplete or malformed variable', () => {
    expect(problems({ JENKINS_URL: 'https://j' })).toEqual([
      'JENKINS_USER, JENKINS_API_TOKEN: required with the other JENKINS_* variables',
    ]);
    expect(
      problems({ JENKINS_QA_URL: 'not a url', JENKINS_QA_USER: 'u', JENKINS_QA_API_TOKEN: 't' }),
    ).toEqual(['JENKINS_QA_URL: must be an http(s) URL']);
    expect(problems({ GITHUB_GHE_API_URL: 'https://ghe/api/v3', GITHUB_TOKEN: 'x' })).toEqual([
      'GITHUB_GHE_TOKEN: required with GITHUB_GHE_API_URL',
    ]);
    expect(problems({ GITLAB_SELF_URL: 'https://gl', GITHUB_TOKEN: 'x' })).toEqual([
      'GITLAB_SELF_TOKEN or GITLAB_SELF_TRIGGER_TOKEN: required with GITLAB_SELF_URL',
    ]);
    expect(problems({ GITHUB_TOKEN: 'x', GITHUB_API_URL: 'ftp://nope' })).toEqual([
      expect.stringMatching(/^GITHUB_API_URL: /),
    ]);
    expect(problems({ GITHUB_TOKEN: 'x', UPSTREAM_TIMEOUT: '1m' })).toEqual([
      expect.stringMatching(/^UPSTREAM_TIMEOUT: /),
    ]);
  });

  it('marks the credentials secret (redacted by the kit)', async () => {
    const { secretFieldsOf } = await import('@app/plugin-kit');
    expect(secretFieldsOf(BuildTriggerEnv).sort()).toEqual([
      'GITHUB_TOKEN',
      'GITLAB_TOKEN',
      'GITLAB_TRIGGER_TOKEN',
      'JENKINS_API_TOKEN',
    ]);
  });
});
