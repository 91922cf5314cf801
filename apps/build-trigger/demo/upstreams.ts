import type { DemoContext, DemoUpstreams } from '@app/local-agent';
import { GitHubStandIn } from '../stand-ins/github/github.stand-in.js';
import { GitLabStandIn } from '../stand-ins/gitlab/gitlab.stand-in.js';
import { JenkinsStandIn } from '../stand-ins/jenkins/jenkins.stand-in.js';

/** Credentials of the demo stand-ins (fake, loopback only). */
export const DEMO_CREDENTIALS = {
  jenkinsUser: 'argo-bot',
  jenkinsToken: '11d7f3c0a9b84e6f9e2a7c5d3b1f0e8a2c',
  githubToken: 'ghp_demoDEMOdemoDEMOdemoDEMOdemo0000',
  gitlabToken: 'glpat-demoDEMOdemoDEMOdemo',
} as const;

export interface BuildDemoUpstreams extends DemoUpstreams {
  jenkins: JenkinsStandIn;
  github: GitHubStandIn;
  gitlab: GitLabStandIn;
}

/** Each stage ends after two polls or a short time, whichever comes first: fast in tests and in the demo. */
const FAST = { polls: 2, ms: 1500 };

/**
 * Starts the three stand-ins on 127.0.0.1, seeded with what manifests/build-trigger/examples use:
 * Jenkins job platform/app-build (parameters TARGET and ARGO_KEY), GitHub workflow acme/webapp ci.yml
 * (inputs environment and argo_key, run-name from argo_key), GitLab project acme/deploy (id 42, pipelines
 * named by $ARGO_KEY). Returns the sidecar env pointing at them.
 */
export async function startDemoUpstreams(_context?: DemoContext): Promise<BuildDemoUpstreams> {
  const c = DEMO_CREDENTIALS;
  const jenkins = new JenkinsStandIn({
    user: c.jenkinsUser,
    apiToken: c.jenkinsToken,
    rootUrl: 'https://jenkins.example.com/',
  });
  jenkins.addJob('platform/app-build', {
    parameters: ['TARGET', 'ARGO_KEY'],
    queue: { ...FAST, why: 'Waiting for next available executor' },
    build: FAST,
    results: ['SUCCESS'],
  });
  const github = new GitHubStandIn({ token: c.githubToken });
  github.addWorkflow('acme/webapp', {
    id: 161335,
    file: 'ci.yml',
    name: 'CI',
    inputs: { environment: { required: true }, argo_key: {} },
    runName: 'CI ${{ inputs.environment }} ${{ inputs.argo_key }}',
    queued: FAST,
    inProgress: FAST,
  });
  const gitlab = new GitLabStandIn({ token: c.gitlabToken });
  gitlab.addProject({
    id: 42,
    path: 'acme/deploy',
    nameFromArgoKey: true,
    stages: [
      { status: 'created', polls: 1 },
      { status: 'pending', ...FAST },
      { status: 'running', ...FAST },
    ],
  });
  await Promise.all([jenkins.start(), github.start(), gitlab.start()]);
  return {
    env: {
      JENKINS_URL: jenkins.url,
      JENKINS_USER: c.jenkinsUser,
      JENKINS_API_TOKEN: c.jenkinsToken,
      GITHUB_TOKEN: c.githubToken,
      GITHUB_API_URL: github.apiUrl,
      GITLAB_URL: gitlab.url,
      GITLAB_TOKEN: c.gitlabToken,
    },
    jenkins,
    github,
    gitlab,
    close: async () => {
      await Promise.all([jenkins.close(), github.close(), gitlab.close()]);
    },
  };
}
