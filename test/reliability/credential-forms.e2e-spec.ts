import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { keysOf, secretFieldsOf, type CollectionDefinition, type PluginDefinition } from '@app/plugin-kit';
import { echoMessage, executeArgs, startAnyHarness, writeHostileReply } from '@app/local-agent';
import { report } from './support/report.js';
import { coverageLine, discoverApps, type PluginTarget } from './support/targets.js';

/**
 * Every credential each plugin loads, in every form it sends it in, echoed back by the upstream: an HTTP
 * upstream that answers 401 with the whole request (request line, headers, body), an SMTP relay that answers
 * 535 with the AUTH line it got. Per row, the relay must have seen the form (the row is not vacuous) and neither
 * the node message nor a log line may hold it. The forms are worked out here, independently of the redactor.
 */
const SIDECAR = { CALL_DEADLINE: '5s', RETRY_BUDGET: '0', SMTP_REQUIRE_TLS: 'false', LOG_LEVEL: 'debug' };
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const form = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);

interface Row {
  credential: string;
  /** How the plugin sends it. */
  how: string;
  /** A key the plugin answers (`notify`, `build`, ...): picks the plugin. */
  key: string;
  body: Record<string, unknown>;
  /** Settings on top of the plugin's demo env (before every upstream is pointed at the echo). */
  env?: Record<string, string>;
  /** The SMTP relay offers only this mechanism. */
  smtp?: 'PLAIN' | 'LOGIN';
  /** The exact texts that carry the credential on the wire, from the sidecar env. */
  sent(env: Record<string, string>): string[];
  /** The credential itself, searched for too (it is not on the wire when only an encoding of it is). */
  secret(env: Record<string, string>): string;
}

const smtpLogin = (env: Record<string, string>): { user: string; pass: string } => {
  const url = new URL(env.SMTP_URL);
  return { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
};
const query = (env: Record<string, string>, name: string, param: string): string =>
  new URL(env[name]).searchParams.get(param)!;

/** An AWS backend's keys: the session token is sent as X-Amz-Security-Token, the secret key only signs. */
function awsRows(backends: Array<[prefix: string, body: Record<string, unknown>]>): Row[] {
  return backends.map(([prefix, body]) => ({
    credential: `${prefix}_SESSION_TOKEN and ${prefix}_SECRET_ACCESS_KEY`,
    how: 'X-Amz-Security-Token, and the key of the SigV4 signature',
    key: 'data-job',
    body,
    env: { [`${prefix}_SESSION_TOKEN`]: `FwoGZXIvYXdzEPf//////////${prefix.toLowerCase()}-session-token` },
    sent: (e) => [e[`${prefix}_SESSION_TOKEN`]],
    secret: (e) => e[`${prefix}_SECRET_ACCESS_KEY`],
  }));
}

const ENCRYPTED_KEY = ((passphrase: string) => ({
  passphrase,
  pem: generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase },
  }).privateKey,
}))('Pa55-phrase-of-the-runner-key');

const ROWS: Row[] = [
  {
    credential: 'JENKINS_API_TOKEN',
    how: 'HTTP Basic with JENKINS_USER',
    key: 'build',
    body: { jenkins: { job: 'app' } },
    sent: (e) => [b64(`${e.JENKINS_USER}:${e.JENKINS_API_TOKEN}`)],
    secret: (e) => e.JENKINS_API_TOKEN,
  },
  {
    credential: 'JENKINS_PROD_API_TOKEN (a named server)',
    how: 'HTTP Basic with JENKINS_PROD_USER',
    key: 'build',
    body: { server: 'prod', jenkins: { job: 'app' } },
    env: {
      JENKINS_PROD_URL: 'http://127.0.0.1:1',
      JENKINS_PROD_USER: 'prod-bot',
      JENKINS_PROD_API_TOKEN: 'Qw3rTy9PoIuYtReWq1Zx',
    },
    sent: (e) => [b64(`${e.JENKINS_PROD_USER}:${e.JENKINS_PROD_API_TOKEN}`)],
    secret: (e) => e.JENKINS_PROD_API_TOKEN,
  },
  {
    credential: 'GITHUB_TOKEN',
    how: 'Authorization: Bearer',
    key: 'build',
    body: { github: { repo: 'acme/web', workflow: 'ci.yml', ref: 'main' } },
    sent: (e) => [e.GITHUB_TOKEN],
    secret: (e) => e.GITHUB_TOKEN,
  },
  {
    credential: 'GITLAB_TOKEN',
    how: 'PRIVATE-TOKEN header',
    key: 'build',
    body: { gitlab: { project: 7, ref: 'main' } },
    sent: (e) => [e.GITLAB_TOKEN],
    secret: (e) => e.GITLAB_TOKEN,
  },
  {
    credential: 'GITLAB_TRIGGER_TOKEN',
    how: 'form body (token=…, + / = ~ encoded)',
    key: 'build',
    body: { gitlab: { project: 7, ref: 'main' }, wait: false },
    env: { GITLAB_TOKEN: '', GITLAB_TRIGGER_TOKEN: 'glptt-8f7e6d5c4b3a2~91+0f/e=d' },
    sent: (e) => [form(e.GITLAB_TRIGGER_TOKEN)],
    secret: (e) => e.GITLAB_TRIGGER_TOKEN,
  },
  {
    credential: 'DATABRICKS_TOKEN',
    how: 'Authorization: Bearer',
    key: 'data-job',
    body: { databricks: { jobId: 1 } },
    sent: (e) => [e.DATABRICKS_TOKEN],
    secret: (e) => e.DATABRICKS_TOKEN,
  },
  {
    credential: 'AIRFLOW_PASSWORD',
    how: 'HTTP Basic with AIRFLOW_USERNAME (API v1)',
    key: 'data-job',
    body: { airflow: { dagId: 'etl' } },
    env: { AIRFLOW_API_VERSION: 'v1' },
    sent: (e) => [b64(`${e.AIRFLOW_USERNAME}:${e.AIRFLOW_PASSWORD}`)],
    secret: (e) => e.AIRFLOW_PASSWORD,
  },
  {
    credential: 'AIRFLOW_PASSWORD',
    how: 'JSON body of POST /auth/token (API v2)',
    key: 'data-job',
    body: { airflow: { dagId: 'etl' } },
    env: { AIRFLOW_API_VERSION: 'v2', AIRFLOW_PASSWORD: 'pw "with" \\ quotes' },
    sent: (e) => [JSON.stringify(e.AIRFLOW_PASSWORD).slice(1, -1)],
    secret: (e) => e.AIRFLOW_PASSWORD,
  },
  {
    credential: 'AIRFLOW_TOKEN',
    how: 'Authorization: Bearer',
    key: 'data-job',
    body: { airflow: { dagId: 'etl' } },
    env: { AIRFLOW_USERNAME: '', AIRFLOW_PASSWORD: '', AIRFLOW_TOKEN: 'eyJhbGciOi.airflow-jwt.c2lnbmF0dXJl' },
    sent: (e) => [e.AIRFLOW_TOKEN],
    secret: (e) => e.AIRFLOW_TOKEN,
  },
  {
    credential: 'DBT_CLOUD_API_TOKEN',
    how: 'Authorization: Token',
    key: 'data-job',
    body: { dbtCloud: { jobId: 2001 } },
    sent: (e) => [e.DBT_CLOUD_API_TOKEN],
    secret: (e) => e.DBT_CLOUD_API_TOKEN,
  },
  {
    credential: 'LIVY_PASSWORD',
    how: 'HTTP Basic with LIVY_USERNAME',
    key: 'data-job',
    body: { livy: { file: 's3://jobs/etl.py' } },
    sent: (e) => [b64(`${e.LIVY_USERNAME}:${e.LIVY_PASSWORD}`)],
    secret: (e) => e.LIVY_PASSWORD,
  },
  ...awsRows([
    [
      'STEP_FUNCTIONS',
      {
        stepFunctions: { stateMachineArn: 'arn:aws:states:eu-west-1:123456789012:stateMachine:orders-load' },
      },
    ],
    [
      'EMR_SERVERLESS',
      {
        emrServerless: {
          applicationId: '00fkjrmgjh8ph00p',
          executionRoleArn: 'arn:aws:iam::123456789012:role/emr-job',
          sparkSubmit: { entryPoint: 's3://jobs/a.py' },
        },
      },
    ],
    ['BATCH', { batch: { jobQueue: 'scoring', jobDefinition: 'score-orders:7' } }],
    ['GLUE', { glue: { jobName: 'orders-curate' } }],
    ['SAGEMAKER_PIPELINES', { sagemakerPipelines: { pipelineName: 'churn-train' } }],
  ]),
  {
    credential: 'ARGO_TOKEN',
    how: 'Authorization: Bearer',
    key: 'workflow-event',
    body: { discriminator: 'forms', payload: { a: 1 } },
    sent: (e) => [e.ARGO_TOKEN.replace(/^Bearer /, '')],
    secret: (e) => e.ARGO_TOKEN.replace(/^Bearer /, ''),
  },
  {
    credential: 'SLACK_BOT_TOKEN',
    how: 'Authorization: Bearer',
    key: 'notify',
    body: { slack: { channel: '#builds', text: 'x' } },
    sent: (e) => [e.SLACK_BOT_TOKEN],
    secret: (e) => e.SLACK_BOT_TOKEN,
  },
  {
    credential: 'DISCORD_BOT_TOKEN',
    how: 'Authorization: Bot (an approval gate)',
    key: 'approve',
    body: { discord: { channel: '1190000000000000101', text: 'x', approvers: ['1190000000000000201'] } },
    sent: (e) => [`Bot ${e.DISCORD_BOT_TOKEN}`],
    secret: (e) => e.DISCORD_BOT_TOKEN,
  },
  {
    credential: 'APPROVALS_GITHUB_TOKEN',
    how: 'Authorization: Bearer (an approval gate)',
    key: 'approve',
    body: { github: { repository: 'acme/deploys', text: 'x', approvers: ['acme/release-managers'] } },
    sent: (e) => [e.APPROVALS_GITHUB_TOKEN],
    secret: (e) => e.APPROVALS_GITHUB_TOKEN,
  },
  {
    credential: 'APPROVALS_JIRA_API_TOKEN',
    how: 'Authorization: Basic, with the email (an approval gate)',
    key: 'approve',
    env: {
      APPROVALS_JIRA_URL: 'http://127.0.0.1:1',
      APPROVALS_JIRA_EMAIL: 'argo@example.com',
      APPROVALS_JIRA_API_TOKEN: 'ATATT3xFfGF0credential0forms0jira0token0',
      APPROVALS_JIRA_PROJECTS: 'OPS',
    },
    body: {
      jira: {
        project: 'OPS',
        text: 'x',
        approvers: ['5b10ac8d82e05b22cc7d4ea1'],
        approvedStatus: 'Approved',
        rejectedStatus: 'Rejected',
      },
    },
    sent: (e) => [b64(`${e.APPROVALS_JIRA_EMAIL}:${e.APPROVALS_JIRA_API_TOKEN}`)],
    secret: (e) => e.APPROVALS_JIRA_API_TOKEN,
  },
  {
    credential: 'APPROVALS_SERVICENOW_PASSWORD',
    how: 'Authorization: Basic, with the user (an approval gate)',
    key: 'approve',
    env: {
      APPROVALS_SERVICENOW_URL: 'http://127.0.0.1:1',
      APPROVALS_SERVICENOW_USER: 'argo.gate',
      APPROVALS_SERVICENOW_PASSWORD: 'credential-forms-servicenow-password',
    },
    body: { servicenow: { text: 'x', approvers: ['a'.repeat(32)] } },
    sent: (e) => [b64(`${e.APPROVALS_SERVICENOW_USER}:${e.APPROVALS_SERVICENOW_PASSWORD}`)],
    secret: (e) => e.APPROVALS_SERVICENOW_PASSWORD,
  },
  {
    credential: 'APPROVALS_SERVICENOW_TOKEN',
    how: 'Authorization: Bearer (an approval gate)',
    key: 'approve',
    env: {
      APPROVALS_SERVICENOW_URL: 'http://127.0.0.1:1',
      APPROVALS_SERVICENOW_USER: 'argo.gate',
      APPROVALS_SERVICENOW_TOKEN: 'credential-forms-servicenow-oauth-token',
      APPROVALS_SERVICENOW_PASSWORD: '', // the demo's Basic password: exactly one of the two is allowed
    },
    body: { servicenow: { text: 'x', approvers: ['a'.repeat(32)] } },
    sent: (e) => [e.APPROVALS_SERVICENOW_TOKEN],
    secret: (e) => e.APPROVALS_SERVICENOW_TOKEN,
  },
  {
    credential: 'MATTERMOST_TOKEN',
    how: 'Authorization: Bearer',
    key: 'notify',
    body: { mattermost: { team: 'eng', channel: 'deploys', text: 'x' } },
    sent: (e) => [e.MATTERMOST_TOKEN],
    secret: (e) => e.MATTERMOST_TOKEN,
  },
  {
    credential: 'DISCORD_WEBHOOK_URL (its token)',
    how: 'URL path',
    key: 'notify',
    body: { discord: { text: 'x' } },
    sent: (e) => [new URL(e.DISCORD_WEBHOOK_URL).pathname.split('/').at(-1)!],
    secret: (e) => new URL(e.DISCORD_WEBHOOK_URL).pathname.split('/').at(-1)!,
  },
  {
    credential: 'GOOGLE_CHAT_WEBHOOK_URL (its token)',
    how: 'query string, percent-encoded',
    key: 'notify',
    body: { googleChat: { text: 'x' } },
    sent: (e) => [encodeURIComponent(query(e, 'GOOGLE_CHAT_WEBHOOK_URL', 'token'))],
    secret: (e) => query(e, 'GOOGLE_CHAT_WEBHOOK_URL', 'token'),
  },
  {
    credential: 'GOOGLE_CHAT_WEBHOOK_URL (its key)',
    how: 'query string',
    key: 'notify',
    body: { googleChat: { text: 'x' } },
    sent: (e) => [query(e, 'GOOGLE_CHAT_WEBHOOK_URL', 'key')],
    secret: (e) => query(e, 'GOOGLE_CHAT_WEBHOOK_URL', 'key'),
  },
  {
    credential: 'GOOGLE_CHAT_SERVICE_ACCOUNT_JSON',
    how: 'a JWT assertion signed with its key, in the token request form body',
    key: 'notify',
    body: { googleChat: { space: 'spaces/AAAAreleases', text: 'x' } },
    // Signed at run time: the assertions are read off the wire below.
    sent: () => [],
    // The key itself is never sent; a line of it must not show either.
    secret: (e) =>
      (JSON.parse(e.GOOGLE_CHAT_SERVICE_ACCOUNT_JSON) as { private_key: string }).private_key.split('\n')[1],
  },
  {
    credential: 'DATAPROC_CREDENTIALS',
    how: 'a JWT assertion signed with its key, in the token request form body',
    key: 'data-job',
    body: { dataproc: { batch: { pysparkBatch: { mainPythonFileUri: 'gs://jobs/a.py' } } } },
    // Signed at run time: the assertions are read off the wire below.
    sent: () => [],
    secret: (e) => (JSON.parse(e.DATAPROC_CREDENTIALS) as { private_key: string }).private_key.split('\n')[1],
  },
  {
    credential: 'CLOUD_RUN_CREDENTIALS',
    how: 'a JWT assertion signed with its key, in the token request form body',
    key: 'data-job',
    body: { cloudRun: { job: 'orders-export' } },
    // Signed at run time: the assertions are read off the wire below.
    sent: () => [],
    secret: (e) =>
      (JSON.parse(e.CLOUD_RUN_CREDENTIALS) as { private_key: string }).private_key.split('\n')[1],
  },
  {
    credential: 'VERTEX_PIPELINES_CREDENTIALS',
    how: 'a JWT assertion signed with its key, in the token request form body',
    key: 'data-job',
    body: { vertexPipelines: { pipelineJob: { templateUri: 'https://europe-west1-kfp.pkg.dev/p/r/t/v1' } } },
    // Signed at run time: the assertions are read off the wire below.
    sent: () => [],
    secret: (e) =>
      (JSON.parse(e.VERTEX_PIPELINES_CREDENTIALS) as { private_key: string }).private_key.split('\n')[1],
  },
  {
    credential: 'DATA_FACTORY_CLIENT_SECRET',
    how: 'the access token it is exchanged for, as Authorization: Bearer (the secret goes to the https authority only)',
    key: 'data-job',
    body: { dataFactory: { pipeline: 'copy_orders' } },
    // The bearer JWT is read off the wire below.
    sent: () => [],
    secret: (e) => e.DATA_FACTORY_CLIENT_SECRET,
  },
  {
    credential: 'SNOWFLAKE_PRIVATE_KEY',
    how: 'a key-pair JWT signed with it, as Authorization: Bearer',
    key: 'data-job',
    body: { snowflake: { statement: 'select 1' } },
    sent: () => [],
    secret: (e) => e.SNOWFLAKE_PRIVATE_KEY.split('\n')[1],
  },
  {
    credential: 'SNOWFLAKE_PRIVATE_KEY_PASSPHRASE',
    how: 'the passphrase of an encrypted key: a JWT signed with the key, as Authorization: Bearer',
    key: 'data-job',
    body: { snowflake: { statement: 'select 1' } },
    env: {
      SNOWFLAKE_PRIVATE_KEY: ENCRYPTED_KEY.pem,
      SNOWFLAKE_PRIVATE_KEY_PASSPHRASE: ENCRYPTED_KEY.passphrase,
    },
    sent: () => [],
    secret: (e) => e.SNOWFLAKE_PRIVATE_KEY_PASSPHRASE,
  },
  {
    credential: 'TEAMS_WEBHOOK_URL (its sig)',
    how: 'query string, percent-encoded',
    key: 'notify',
    body: { teams: { text: 'x' } },
    sent: (e) => [encodeURIComponent(query(e, 'TEAMS_WEBHOOK_URL', 'sig'))],
    secret: (e) => query(e, 'TEAMS_WEBHOOK_URL', 'sig'),
  },
  {
    credential: 'TEAMS_BOT_APP_PASSWORD',
    how: 'form body of the token request (client_secret=…, ~ as %7E)',
    key: 'notify',
    body: { teams: { channel: '19:forms0channel@thread.tacv2', text: 'x' } },
    sent: (e) => [form(e.TEAMS_BOT_APP_PASSWORD)],
    secret: (e) => e.TEAMS_BOT_APP_PASSWORD,
  },
  {
    credential: 'PAGERDUTY_ROUTING_KEY',
    how: 'JSON body (routing_key)',
    key: 'notify',
    body: { pagerduty: { status: 'failed', title: 'x' } },
    sent: (e) => [e.PAGERDUTY_ROUTING_KEY],
    secret: (e) => e.PAGERDUTY_ROUTING_KEY,
  },
  {
    credential: 'SMTP_URL (its password)',
    how: 'SMTP AUTH PLAIN: base64(\\0user\\0password)',
    key: 'notify',
    body: { email: { to: ['ops@example.com'], text: 'x' } },
    smtp: 'PLAIN',
    sent: (e) => [b64(`\0${smtpLogin(e).user}\0${smtpLogin(e).pass}`)],
    secret: (e) => smtpLogin(e).pass,
  },
  {
    credential: 'SMTP_URL (its password)',
    how: 'SMTP AUTH LOGIN: base64(password)',
    key: 'notify',
    body: { email: { to: ['ops@example.com'], text: 'x' } },
    smtp: 'LOGIN',
    sent: (e) => [b64(smtpLogin(e).pass)],
    secret: (e) => smtpLogin(e).pass,
  },
];

/** An upstream that answers every request 401 with all of it, and keeps what it echoed. */
async function startHttpEcho(): Promise<{ url: string; echoed: string[]; close(): Promise<void> }> {
  const echoed: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        text: Buffer.concat(chunks).toString('utf8'),
      };
      echoed.push(echoMessage(request));
      void writeHostileReply({ kind: 'echo', status: 401 }, request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    echoed,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A relay that offers one AUTH mechanism and refuses every login with 535, quoting what it was sent. */
async function startSmtpEcho(
  method: 'PLAIN' | 'LOGIN',
): Promise<{ port: number; echoed: string[]; close(): Promise<void> }> {
  const echoed: string[] = [];
  const server = new SMTPServer({
    authMethods: [method],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) => {
      const user = auth.username ?? '';
      const pass = auth.password ?? '';
      const line =
        method === 'PLAIN'
          ? `AUTH PLAIN ${b64(`\0${user}\0${pass}`)}`
          : `AUTH LOGIN ${b64(user)} ${b64(pass)}`;
      echoed.push(line);
      callback(Object.assign(new Error(`5.7.8 Authentication failed: ${line}`), { responseCode: 535 }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    echoed,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The demo env with every loopback upstream (URLs, also inside JSON, and bare host:port) pointed at the echoes. */
function pointedAt(env: Record<string, string>, http: string, smtpPort: number): Record<string, string> {
  const host = new URL(http).host;
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      k.startsWith('SMTP_URL')
        ? v.replace(/^smtps?:\/\/([^@/]*@)?[^/]+$/, (_, auth = '') => `smtp://${auth}127.0.0.1:${smtpPort}`)
        : v.replace(/http:\/\/127\.0\.0\.1:\d+/g, http).replace(/^127\.0\.0\.1:\d+$/, host),
    ]),
  );
}

const apps = discoverApps();
const singles: Array<{ target: PluginTarget; keys: string[]; secrets: string[] }> = [];
let searched = 0;
let shownTotal = 0;
const lines: string[] = [];

describe('credential forms: every credential, in every form it is sent in, echoed back', () => {
  beforeAll(async () => {
    for (const target of apps.targets) {
      const definition = (await target.definition()) as PluginDefinition | CollectionDefinition;
      if (!('plugins' in definition))
        singles.push({
          target,
          keys: keysOf(definition),
          secrets: definition.env ? secretFieldsOf(definition.env) : [],
        });
    }
  });
  afterAll(() => {
    report(
      coverageLine('credential-forms', { targets: singles.map((s) => s.target), skipped: apps.skipped }),
    );
    lines.forEach((l) => report(`  ${l}`));
    report(
      `credential forms: ${ROWS.length} credential × form rows, ${searched} forms searched in node messages and log lines, ${shownTotal} found`,
    );
  });

  it("has a row for every secret of every plugin's env class (its providers' variables included)", () => {
    const covered = new Set(ROWS.flatMap((r) => r.credential.match(/\b[A-Z][A-Z0-9_]+\b/g) ?? []));
    const missing = singles.flatMap((s) =>
      s.secrets.filter((name) => !covered.has(name)).map((name) => `${s.target.name}: ${name}`),
    );
    expect(singles.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it.each(ROWS.map((r) => [`${r.credential} as ${r.how}`, r] as const))('%s', async (_name, row) => {
    const found = singles.find((s) => s.keys.includes(row.key));
    if (!found) throw new Error(`no plugin answers ${row.key}`);
    const { target } = found;
    const http = await startHttpEcho();
    const smtp = await startSmtpEcho(row.smtp ?? 'PLAIN');
    const upstreams = await target.startUpstreams({ plugins: [], timeScale: 0.01 });
    try {
      const demo = Object.fromEntries(
        Object.entries({ ...upstreams.env, ...target.env, ...row.env }).filter(([, v]) => v !== ''),
      );
      const env = { ...pointedAt(demo, http.url, smtp.port), ...SIDECAR };
      const h = await startAnyHarness(await target.definition(), { env });
      let shown: string;
      try {
        const reply = await h.execute(executeArgs({ [row.key]: row.body }));
        shown = `${reply.text}\n${h.logText()}`;
        expect(reply.body.node?.phase).toBe('Failed');
      } finally {
        await h.close();
      }
      const wire = [...http.echoed, ...smtp.echoed].join('\n');
      // JWTs signed at run time: token-request assertions and bearer JWTs (a key-pair JWT).
      const assertions = [...wire.matchAll(/(?:assertion=|Bearer )([\w-]+\.[\w-]+\.[\w-]+)/g)].map(
        (m) => m[1],
      );
      const sent = [...row.sent(env), ...assertions];
      // The relay saw every form as sent: the row checks something.
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((f) => !wire.includes(f))).toEqual([]);
      const forms = [...sent, row.secret(env)];
      searched += forms.length;
      const leaked = forms.filter((f) => shown.includes(f));
      shownTotal += leaked.length;
      expect(leaked).toEqual([]);
      lines.push(
        `${target.name}: ${row.credential} as ${row.how}: ${forms.length} forms searched, ${leaked.length} shown`,
      );
    } finally {
      await upstreams.close();
      await smtp.close();
      await http.close();
    }
  });
});
