import type { PluginHarness, StandInServer } from '@app/local-agent';
import type { AwsError } from '../../stand-ins/aws/aws-json-stand-in.js';
import {
  dataJob,
  expectNoSecrets,
  outputs,
  pollToEnd,
  SECRETS,
  sharedSidecar,
  sleep,
  uniqueWorkflow,
  withSidecar,
  type Polled,
  type Upstream,
} from '../support.js';

/** What the table needs of an AWS stand-in (JSON or REST protocol). */
export interface AwsBackendStandIn extends Upstream {
  readonly region: string;
  readonly url: string;
  readonly server: StandInServer;
  count(operation: string): number;
  throttle(operation: string, times?: number, type?: string): void;
  failNext(operation: string, error: AwsError, times?: number): void;
}

type Body = Record<string, unknown>;

/** One test's view: the backend's stand-in, the shared sidecar and its settings. */
export interface AwsCase<S> {
  s: S;
  h: PluginHarness;
  env: Record<string, string>;
}

/**
 * One row of the AWS e2e table: a backend, its stand-in with its resources, and per promise the bodies and the
 * backend's own checks. Every row gets every test of `describeAwsBackend`.
 */
export interface AwsBackend<S extends AwsBackendStandIn> {
  /** The label in node messages (`AWS Batch`), the describe's title. */
  label: string;
  /** The settings' prefix (`BATCH` for `BATCH_REGION`, ...). */
  prefix: string;
  accessKeyId: string;
  standIn(keys: { accessKeyId: string; secretAccessKey: string }): S;
  /** Adds the resources the bodies use; runs once the stand-in is listening. */
  setup(s: S): void;
  /** The backend's first call for a step (its look-up or its start). */
  firstCall: string;
  success: { title: string; body(s: S): Body; check(s: S, polled: Polled): void };
  failures: Array<{ title: string; body(s: S): Body; message: RegExp }>;
  once: {
    title: string;
    body(s: S): Body;
    /** After the concurrent calls: what someone else does before the sidecar restarts. */
    beforeRestart?(c: AwsCase<S>, runId: string): void;
    /** The restarted sidecar follows the run to its end (`true`), or only finds it. */
    followToEnd: boolean;
    check(c: AwsCase<S>, runId: string, request: unknown): Promise<void> | void;
  };
  throttling: {
    title: string;
    body(s: S): Body;
    start: { operation: string; type?: string };
    afterStart?(s: S): void;
    poll: { operation: string; error: AwsError; message: RegExp };
    /** Past the SDK's retries once more, before the run is followed to its end. */
    afterPoll?(c: AwsCase<S>, request: unknown): Promise<void>;
  };
  timeout: { title: string; body(s: S): Body; message: RegExp; check(s: S): void };
  invalid: Array<{ body(s: S): Body; message: string }>;
  refused: { body(s: S): Body; message: string | RegExp };
  /** The backend's own tests. */
  more?(c: () => AwsCase<S>): void;
}

const keysOf = (row: { accessKeyId: string }) => ({
  accessKeyId: row.accessKeyId,
  secretAccessKey: SECRETS.awsSecretKey,
});

export function awsEnv(row: { prefix: string; accessKeyId: string }, s: AwsBackendStandIn) {
  return {
    [`${row.prefix}_REGION`]: s.region,
    [`${row.prefix}_ENDPOINT_URL`]: s.url,
    [`${row.prefix}_ACCESS_KEY_ID`]: row.accessKeyId,
    [`${row.prefix}_SECRET_ACCESS_KEY`]: SECRETS.awsSecretKey,
  };
}

/** The promises of the data-job runner, held for one AWS backend against its stand-in. */
export function describeAwsBackend<S extends AwsBackendStandIn>(row: AwsBackend<S>): void {
  describe(`data-job: ${row.label}`, () => {
    const s = row.standIn(keysOf(row));
    const env = () => awsEnv(row, s);
    const h = sharedSidecar([s], env, () => row.setup(s));
    const c = (): AwsCase<S> => ({ s, h, env: env() });
    const request = (body: Body) => dataJob(body, { workflow: uniqueWorkflow() });

    it(row.success.title, async () => {
      const polled = await pollToEnd(h, request(row.success.body(s)), s.server);
      expect(polled.final.node?.phase).toBe('Succeeded');
      expect(polled.requestsPerCall.slice(1).every((n) => n === 1)).toBe(true);
      row.success.check(s, polled);
      expectNoSecrets(h, polled.replies, [SECRETS.awsSecretKey]);
    });

    it.each(row.failures.map((f) => [f.title, f] as const))('%s', async (_title, failure) => {
      const { final } = await pollToEnd(h, request(failure.body(s)), s.server);
      expect(final.node?.phase).toBe('Failed');
      expect(final.node?.message).toMatch(failure.message);
    });

    it(row.once.title, async () => {
      const once = request(row.once.body(s));
      const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.execute(once)));
      const runId = outputs(concurrent[0].body).runId;
      expect(new Set(concurrent.map((r) => outputs(r.body).runId))).toEqual(new Set([runId]));
      row.once.beforeRestart?.(c(), runId);
      await withSidecar(env(), async (restarted) => {
        if (!row.once.followToEnd) {
          expect(outputs((await restarted.execute(once)).body).runId).toBe(runId);
          return;
        }
        const { final } = await pollToEnd(restarted, once, s.server);
        expect([final.node?.phase, outputs(final).runId]).toEqual(['Succeeded', runId]);
      });
      await row.once.check(c(), runId, once);
    });

    it(row.throttling.title, async () => {
      const { start, poll } = row.throttling;
      const throttled = request(row.throttling.body(s));
      s.throttle(start.operation, 2, start.type);
      expect((await h.execute(throttled)).body.node?.phase).toBe('Running');
      row.throttling.afterStart?.(s);
      s.failNext(poll.operation, poll.error, 3);
      expect((await h.execute(throttled)).body.node?.message).toMatch(poll.message);
      await row.throttling.afterPoll?.(c(), throttled);
      const { final } = await pollToEnd(h, throttled, s.server);
      expect(final.node?.phase).toBe('Succeeded');
    });

    it(row.timeout.title, async () => {
      const late = request({ ...row.timeout.body(s), timeout: '1s', pollInterval: '5s' });
      expect((await h.execute(late)).body.requeue).toBe('1s');
      await sleep(1050);
      expect((await h.execute(late)).body.node?.message).toMatch(row.timeout.message);
      row.timeout.check(s);
    });

    it('fails naming the field of a bad body, and the AWS reason of a refused call', async () => {
      for (const invalid of row.invalid)
        expect((await h.execute(dataJob(invalid.body(s)))).body.node).toEqual({
          phase: 'Failed',
          message: invalid.message,
        });
      const refused = (await h.execute(request(row.refused.body(s)))).body.node;
      expect(refused?.phase).toBe('Failed');
      if (typeof row.refused.message === 'string') expect(refused?.message).toBe(row.refused.message);
      else expect(refused?.message).toMatch(row.refused.message);
    });

    it('fails with the signature refusal of a wrong secret, which appears nowhere', async () => {
      const wrong = 'wrong-aws-secret-key-0000000000000000000';
      await withSidecar({ ...env(), [`${row.prefix}_SECRET_ACCESS_KEY`]: wrong }, async (wh) => {
        const reply = await wh.execute(request(row.success.body(s)));
        expect(reply.body.node?.message).toMatch(
          new RegExp(`: ${row.firstCall} → 403 InvalidSignatureException`),
        );
        expectNoSecrets(wh, [reply.body], [wrong]);
      });
    });

    it('names the variable to set when the body picks an unconfigured connection', async () => {
      const reply = await h.execute(dataJob({ ...row.success.body(s), connection: 'prod' }));
      expect(reply.body.node?.phase).toBe('Failed');
      expect(reply.body.node?.message).toContain(`${row.prefix}_PROD_REGION`);
    });

    row.more?.(c);
  });
}
