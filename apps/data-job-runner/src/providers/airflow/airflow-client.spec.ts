import { Redactor, UpstreamError } from '@app/plugin-kit';
import { StandInServer } from '@app/local-agent';
import { AirflowStandIn } from '../../../stand-ins/airflow/airflow.stand-in.js';
import { AirflowClient } from './airflow-client.js';

describe('AirflowClient', () => {
  it('detects v2, v1, and a v2 that wants credentials for /version', async () => {
    const v1 = new AirflowStandIn({ api: 'v1', username: 'u', password: 'p' });
    const v2 = new AirflowStandIn({ api: 'v2', username: 'u', password: 'p' });
    const locked = new StandInServer('locked').route('GET', '/api/v2/version', () => ({
      status: 401,
      body: { detail: 'Not authenticated' },
    }));
    await Promise.all([v1.start(), v2.start(), locked.start()]);
    try {
      const client = (url: string) =>
        new AirflowClient({ url, username: 'u', password: 'p', apiVersion: 'auto' }, 1000, new Redactor());
      expect(await client(v1.url).apiVersion()).toBe('v1');
      expect(await client(v2.url).apiVersion()).toBe('v2');
      expect(await client(locked.url).apiVersion()).toBe('v2');
      v2.server.resetCalls();
      const detected = client(v2.url);
      await detected.apiVersion();
      await detected.apiVersion();
      expect(v2.server.count('GET', '/api/v2/version')).toBe(1);
    } finally {
      await Promise.all([v1.close(), v2.close(), locked.close()]);
    }
  });

  it('says clearly when there is no Airflow API, and retries detection after a transient failure', async () => {
    const nothing = new StandInServer('nothing');
    await nothing.start();
    try {
      const client = new AirflowClient(
        { url: nothing.url, token: 't', apiVersion: 'auto' },
        1000,
        new Redactor(),
      );
      nothing.faults.add({ kind: 'status', status: 503 });
      await expect(client.apiVersion()).rejects.toMatchObject({ kind: 'transient' });
      const err = await client.apiVersion().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as UpstreamError).message).toBe(
        `airflow: no Airflow REST API at ${nothing.url} (neither /api/v2/version nor /api/v1/version answered); check AIRFLOW_URL or set AIRFLOW_API_VERSION`,
      );
    } finally {
      await nothing.close();
    }
  });

  it('adds issued JWTs to the redactor', async () => {
    const v2 = new AirflowStandIn({ api: 'v2', username: 'u', password: 'p' });
    await v2.start();
    v2.addDag({ dagId: 'd' });
    try {
      const redactor = new Redactor();
      const client = new AirflowClient(
        { url: v2.url, username: 'u', password: 'p', apiVersion: 'v2' },
        1000,
        redactor,
      );
      await client.request({ method: 'GET', url: '/dags/d' });
      const [jwt] = [...v2.jwts.keys()];
      expect(redactor.redact(`token ${jwt}`)).toBe('token [REDACTED]');
    } finally {
      await v2.close();
    }
  });
});
