// Every backend of the data-job runner and the build trigger, each stand-in seeded with one job that runs until
// it is cancelled, and the cancel requests each one received: what the stop tests count.
import type { StandInServer } from '@app/local-agent';
import { GitHubStandIn } from '../../../build-trigger/stand-ins/github/github.stand-in.js';
import { GitLabStandIn } from '../../../build-trigger/stand-ins/gitlab/gitlab.stand-in.js';
import { JenkinsStandIn } from '../../../build-trigger/stand-ins/jenkins/jenkins.stand-in.js';
import {
  AirflowStandIn,
  DatabricksStandIn,
  DbtCloudStandIn,
  LivyStandIn,
} from '../../../data-job-runner/stand-ins/index.js';

export const BACKENDS = ['databricks', 'airflow', 'dbtCloud', 'livy', 'jenkins', 'github', 'gitlab'] as const;
export type Backend = (typeof BACKENDS)[number];

const CREDENTIALS = {
  databricks: 'dapi-stop0a1b2c3d4e5f60718293a4b5c6d7',
  airflowUser: 'argo-runner',
  airflowPassword: 'airflow-stop-pw-0a1b2c3d',
  dbtAccount: 43786,
  dbtToken: 'dbtc_stopSTOPstopSTOPstop1234',
  livyUser: 'livy-runner',
  livyPassword: 'livy-stop-pw-9f8e7d6c',
  jenkinsUser: 'argo-bot',
  jenkinsToken: '11d7f3c0a9b84e6f9e2a7c5d3b1f0e8a2c',
  github: 'ghp_stopSTOPstopSTOPstopSTOPstop0000',
  gitlab: 'glpat-stopSTOPstopSTOPstop',
} as const;

/** Longer than any test: the job runs until cancelled. */
const FOREVER = { polls: 1_000_000 };

export interface LongJobs {
  /** The plugins' settings (the collection's variables). */
  env: Record<string, string>;
  /** The template's `plugin` of each backend's step: its long job, polled every second. */
  plugin(backend: Backend, key: string): Record<string, unknown>;
  /** Cancels each stand-in received (Jenkins: a build's stop, term or kill, or a queue item cancelled). */
  cancels(): Record<Backend, number>;
  close(): Promise<void>;
}

/** Starts the seven stand-ins where `setStandInHost` says (loopback by default). */
export async function startLongJobs(): Promise<LongJobs> {
  const c = CREDENTIALS;
  const databricks = new DatabricksStandIn({ token: c.databricks }).addJob({
    jobId: 3001,
    name: 'forever',
    lifecycle: [{ state: 'RUNNING', ...FOREVER }, { state: 'TERMINATED/SUCCESS' }],
  });
  const airflow = new AirflowStandIn({ api: 'v2', username: c.airflowUser, password: c.airflowPassword });
  airflow.addDag({ dagId: 'forever', lifecycle: [{ state: 'running', ...FOREVER }, { state: 'success' }] });
  const dbt = new DbtCloudStandIn({ accountId: c.dbtAccount, token: c.dbtToken });
  dbt.addJob({ jobId: 3002, name: 'forever', lifecycle: [{ state: 3, ...FOREVER }, { state: 10 }] });
  const livy = new LivyStandIn({
    username: c.livyUser,
    password: c.livyPassword,
    lifecycle: [{ state: 'running', ...FOREVER }, { state: 'success' }],
  });
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
  const standIns = { databricks, airflow, dbt, livy, jenkins, github, gitlab };
  await Promise.all(Object.values(standIns).map((s) => s.start()));

  const cancelsOf: Record<Backend, (server: StandInServer) => number> = {
    databricks: (s) => s.count('POST', /\/jobs\/runs\/cancel$/),
    airflow: (s) => s.count('PATCH', /\/dags\/forever\/dagRuns\//),
    dbtCloud: (s) => s.count('POST', /\/runs\/\d+\/cancel\/$/),
    livy: (s) => s.count('DELETE', /^\/batches\/\d+$/),
    // A queue item that has just left the queue refuses cancelItem (422): the cancel then stops its build.
    jenkins: (s) =>
      s.calls.filter(
        (c) =>
          c.method === 'POST' &&
          (/\/\d+\/(stop|term|kill)$/.test(c.path) ||
            (c.path.startsWith('/queue/cancelItem') && c.status < 400)),
      ).length,
    github: (s) => s.count('POST', /\/actions\/runs\/\d+\/cancel$/),
    gitlab: (s) => s.count('POST', /\/pipelines\/\d+\/cancel$/),
  };
  const serverOf: Record<Backend, StandInServer> = {
    databricks: databricks.server,
    airflow: airflow.server,
    dbtCloud: dbt.server,
    livy: livy.server,
    jenkins: jenkins.server,
    github: github.server,
    gitlab: gitlab.server,
  };
  const bodies: Record<Backend, (key: string) => Record<string, unknown>> = {
    databricks: (key) => ({ 'data-job': { databricks: { jobId: 3001 }, key, pollInterval: '1s' } }),
    airflow: (key) => ({ 'data-job': { airflow: { dagId: 'forever' }, key, pollInterval: '1s' } }),
    dbtCloud: (key) => ({ 'data-job': { dbtCloud: { jobId: 3002 }, key, pollInterval: '1s' } }),
    livy: (key) => ({
      'data-job': { livy: { name: `forever-${key}`, file: 's3://jobs/forever.py' }, key, pollInterval: '1s' },
    }),
    jenkins: (key) => ({ build: { jenkins: { job: 'platform/forever' }, key, pollInterval: '1s' } }),
    github: (key) => ({
      build: {
        github: { repo: 'acme/forever', workflow: 'forever.yml', ref: 'main' },
        key,
        pollInterval: '1s',
      },
    }),
    gitlab: (key) => ({
      build: { gitlab: { project: 'acme/forever', ref: 'main' }, key, pollInterval: '1s' },
    }),
  };
  return {
    env: {
      DATABRICKS_HOST: databricks.url,
      DATABRICKS_TOKEN: c.databricks,
      AIRFLOW_URL: airflow.url,
      AIRFLOW_USERNAME: c.airflowUser,
      AIRFLOW_PASSWORD: c.airflowPassword,
      DBT_CLOUD_URL: dbt.url,
      DBT_CLOUD_ACCOUNT_ID: String(c.dbtAccount),
      DBT_CLOUD_API_TOKEN: c.dbtToken,
      LIVY_URL: livy.url,
      LIVY_USERNAME: c.livyUser,
      LIVY_PASSWORD: c.livyPassword,
      JENKINS_URL: jenkins.url,
      JENKINS_USER: c.jenkinsUser,
      JENKINS_API_TOKEN: c.jenkinsToken,
      GITHUB_TOKEN: c.github,
      GITHUB_API_URL: github.apiUrl,
      GITLAB_URL: gitlab.url,
      GITLAB_TOKEN: c.gitlab,
    },
    plugin: (backend, key) => bodies[backend](key),
    cancels: () =>
      Object.fromEntries(BACKENDS.map((b) => [b, cancelsOf[b](serverOf[b])])) as Record<Backend, number>,
    close: async () => {
      await Promise.all(Object.values(standIns).map((s) => s.close()));
    },
  };
}
