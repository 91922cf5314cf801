// The build trigger's providers, each stand-in seeded with one build that runs until it is cancelled.
import { GitHubStandIn } from '../../../build-trigger/stand-ins/github/github.stand-in.js';
import { GitLabStandIn } from '../../../build-trigger/stand-ins/gitlab/gitlab.stand-in.js';
import { JenkinsStandIn } from '../../../build-trigger/stand-ins/jenkins/jenkins.stand-in.js';
import { FOREVER, type LongJob } from './long-job.js';

const CREDENTIALS = {
  jenkinsUser: 'argo-bot',
  jenkinsToken: '11d7f3c0a9b84e6f9e2a7c5d3b1f0e8a2c',
  github: 'ghp_stopSTOPstopSTOPstopSTOPstop0000',
  gitlab: 'glpat-stopSTOPstopSTOPstop',
} as const;

const build = (key: string, block: Record<string, unknown>) => ({
  build: { ...block, key, pollInterval: '1s' },
});

export function longBuilds(): Record<'jenkins' | 'github' | 'gitlab', LongJob> {
  const c = CREDENTIALS;
  const jenkins = new JenkinsStandIn({ user: c.jenkinsUser, apiToken: c.jenkinsToken });
  jenkins.addJob('platform/forever', {
    parameters: ['ARGO_KEY'],
    queue: { polls: 1 },
    build: FOREVER,
    results: ['SUCCESS'],
  });
  const github = new GitHubStandIn({ token: c.github });
  github.addWorkflow('acme/forever', {
    id: 4242,
    file: 'forever.yml',
    inputs: { argo_key: {} },
    runName: 'forever ${{ inputs.argo_key }}',
    queued: { polls: 1 },
    inProgress: FOREVER,
  });
  const gitlab = new GitLabStandIn({ token: c.gitlab });
  gitlab.addProject({
    id: 77,
    path: 'acme/forever',
    nameFromArgoKey: true,
    stages: [{ status: 'running', ...FOREVER }],
  });
  return {
    jenkins: {
      standIn: jenkins,
      env: () => ({
        JENKINS_URL: jenkins.url,
        JENKINS_USER: c.jenkinsUser,
        JENKINS_API_TOKEN: c.jenkinsToken,
      }),
      plugin: (key) => build(key, { jenkins: { job: 'platform/forever' } }),
      // A build's stop, term or kill, or a queue item cancelled (one that has just left the queue refuses
      // cancelItem with 422: the cancel then stops its build).
      cancels: () =>
        jenkins.server.calls.filter(
          (call) =>
            call.method === 'POST' &&
            (/\/\d+\/(stop|term|kill)$/.test(call.path) ||
              (call.path.startsWith('/queue/cancelItem') && call.status < 400)),
        ).length,
    },
    github: {
      standIn: github,
      env: () => ({ GITHUB_TOKEN: c.github, GITHUB_API_URL: github.apiUrl }),
      plugin: (key) => build(key, { github: { repo: 'acme/forever', workflow: 'forever.yml', ref: 'main' } }),
      cancels: () => github.server.count('POST', /\/actions\/runs\/\d+\/cancel$/),
    },
    gitlab: {
      standIn: gitlab,
      env: () => ({ GITLAB_URL: gitlab.url, GITLAB_TOKEN: c.gitlab }),
      plugin: (key) => build(key, { gitlab: { project: 'acme/forever', ref: 'main' } }),
      cancels: () => gitlab.server.count('POST', /\/pipelines\/\d+\/cancel$/),
    },
  };
}
