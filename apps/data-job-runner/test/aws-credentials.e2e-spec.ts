import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AwsKey } from '@app/local-agent';
import { AwsError } from '../stand-ins/aws/aws-json-stand-in.js';
import { StsStandIn } from '../stand-ins/aws/sts.stand-in.js';
import { StepFunctionsStandIn } from '../stand-ins/step-functions/step-functions.stand-in.js';
import { dataJob, expectNoSecrets, pollToEnd, SECRETS, uniqueWorkflow, withSidecar } from './support.js';

const BASE = { accessKeyId: 'AKIAE2EBASEKEYS00001', secretAccessKey: SECRETS.awsSecretKey };
const ROLE = 'arn:aws:iam::123456789012:role/argo-data-jobs';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.e2e-service-account-token.c2lnbmF0dXJl';
/** The SDK's own variables: IRSA and EKS Pod Identity set them in the pod; AWS_ENDPOINT_URL_STS points at the stand-in. */
const SDK_VARIABLES = [
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_ROLE_ARN',
  'AWS_ROLE_SESSION_NAME',
  'AWS_ENDPOINT_URL_STS',
  'AWS_REGION',
];

describe('data-job: AWS credential forms', () => {
  const issued: AwsKey[] = [];
  const sts = new StsStandIn({ keys: [BASE], issued, roles: [ROLE], webIdentityToken: TOKEN });
  // The service accepts only the temporary keys STS issued, not the base keys.
  const sfn = new StepFunctionsStandIn({ keys: issued });
  const machine = sfn.addStateMachine({ name: 'orders' });
  const saved = Object.fromEntries(SDK_VARIABLES.map((v) => [v, process.env[v]]));
  const dir = mkdtempSync(join(tmpdir(), 'aws-credentials-'));
  beforeAll(async () => {
    await Promise.all([sts.start(), sfn.start()]);
    for (const v of SDK_VARIABLES) delete process.env[v];
    process.env.AWS_ENDPOINT_URL_STS = sts.url;
  });
  afterAll(async () => {
    for (const [v, value] of Object.entries(saved))
      if (value === undefined) delete process.env[v];
      else process.env[v] = value;
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([sts.close(), sfn.close()]);
  });
  const issuedSecrets = () => issued.flatMap((k) => [k.secretAccessKey, k.sessionToken!]);

  it('uses the web-identity token file of IRSA or EKS Pod Identity through the SDK chain, and masks what it gets', async () => {
    const file = join(dir, 'token');
    writeFileSync(file, TOKEN);
    process.env.AWS_WEB_IDENTITY_TOKEN_FILE = file;
    process.env.AWS_ROLE_ARN = ROLE;
    try {
      await withSidecar(
        { STEP_FUNCTIONS_REGION: sfn.region, STEP_FUNCTIONS_ENDPOINT_URL: sfn.url },
        async (h) => {
          const { replies, final } = await pollToEnd(
            h,
            dataJob({ stepFunctions: { stateMachineArn: machine } }, { workflow: uniqueWorkflow() }),
            sfn.server,
          );
          expect(final.node?.phase).toBe('Succeeded');
          expect(sts.assumed.map((a) => [a.action, a.roleArn])).toEqual([
            ['AssumeRoleWithWebIdentity', ROLE],
          ]);
          const { sessionToken } = issued.at(-1)!;
          sfn.failNext(
            'StartExecution',
            new AwsError('UnrecognizedClientException', `The security token ${sessionToken} is expired`, 403),
          );
          const echoed = await h.execute(
            dataJob({ stepFunctions: { stateMachineArn: machine } }, { workflow: uniqueWorkflow() }),
          );
          expect(echoed.body.node?.message).toBe(
            'stepFunctions: StartExecution → 403 UnrecognizedClientException: The security token [REDACTED] is expired',
          );
          expectNoSecrets(h, [...replies, echoed.body], [TOKEN, ...issuedSecrets()]);
        },
      );
    } finally {
      delete process.env.AWS_WEB_IDENTITY_TOKEN_FILE;
      delete process.env.AWS_ROLE_ARN;
    }
  });

  it('assumes the role of a named connection with its external id, so a namespace works in its own account', async () => {
    const env = {
      STEP_FUNCTIONS_PROD_REGION: sfn.region,
      STEP_FUNCTIONS_PROD_ENDPOINT_URL: sfn.url,
      STEP_FUNCTIONS_PROD_ACCESS_KEY_ID: BASE.accessKeyId,
      STEP_FUNCTIONS_PROD_SECRET_ACCESS_KEY: BASE.secretAccessKey,
      STEP_FUNCTIONS_PROD_ROLE_ARN: ROLE,
      STEP_FUNCTIONS_PROD_EXTERNAL_ID: 'tenant-7',
    };
    await withSidecar(env, async (h) => {
      const request = dataJob(
        { stepFunctions: { stateMachineArn: machine }, connection: 'prod' },
        { workflow: uniqueWorkflow() },
      );
      const { replies, final } = await pollToEnd(h, request, sfn.server);
      expect(final.node?.phase).toBe('Succeeded');
      expect(sts.assumed.at(-1)).toEqual({
        action: 'AssumeRole',
        roleArn: ROLE,
        sessionName: 'argo-data-job',
        externalId: 'tenant-7',
      });
      const signedBy = sfn.server.calls
        .filter((c) => c.status === 200)
        .map((c) => /Credential=(\w+)\//.exec(String(c.headers.authorization))?.[1]);
      expect(signedBy.at(-1)).toBe(issued.at(-1)!.accessKeyId);
      expect(signedBy).not.toContain(BASE.accessKeyId);
      expectNoSecrets(h, replies, [BASE.secretAccessKey, ...issuedSecrets()]);
    });
  });
});
