import { loadEnv, EnvValidationError, upstreamId } from '@app/plugin-kit';
import { DataJobEnv, parseConnections } from './data-job.env.js';

describe('parseConnections', () => {
  it('reads the unnamed and named connections of every provider', () => {
    const { connections, problems } = parseConnections({
      DATABRICKS_HOST: 'adb-1.2.azuredatabricks.net/',
      DATABRICKS_TOKEN: 'dapi-default',
      DATABRICKS_PROD_EU_HOST: 'https://prod.cloud.databricks.com',
      DATABRICKS_PROD_EU_TOKEN: 'dapi-prod',
      AIRFLOW_URL: 'https://airflow.example.com/',
      AIRFLOW_USERNAME: 'argo',
      AIRFLOW_PASSWORD: 'pw-123456',
      AIRFLOW_API_VERSION: 'V2',
      AIRFLOW_ASTRO_URL: 'https://astro.example.com',
      AIRFLOW_ASTRO_TOKEN: 'astro-token',
      AIRFLOW_ASTRO_API_VERSION: 'v1',
      DBT_CLOUD_ACCOUNT_ID: '42',
      DBT_CLOUD_API_TOKEN: 'dbtc_x',
      DBT_CLOUD_EMEA_URL: 'https://emea.dbt.com',
      DBT_CLOUD_EMEA_ACCOUNT_ID: '7',
      DBT_CLOUD_EMEA_API_TOKEN: 'dbtc_y',
      LIVY_URL: 'http://livy:8998',
    });
    expect(problems).toEqual([]);
    expect(connections.databricks.get('default')).toEqual({
      host: 'https://adb-1.2.azuredatabricks.net',
      token: 'dapi-default',
    });
    expect(connections.databricks.get('prod_eu')?.host).toBe('https://prod.cloud.databricks.com');
    expect(connections.airflow.get('default')).toMatchObject({
      url: 'https://airflow.example.com',
      apiVersion: 'v2',
      username: 'argo',
    });
    expect(connections.airflow.get('astro')).toMatchObject({ token: 'astro-token', apiVersion: 'v1' });
    expect(connections.dbtCloud.get('default')).toEqual({
      url: 'https://cloud.getdbt.com',
      accountId: '42',
      token: 'dbtc_x',
    });
    expect(connections.dbtCloud.get('emea')?.url).toBe('https://emea.dbt.com');
    expect(connections.livy.get('default')).toEqual({
      url: 'http://livy:8998',
      username: undefined,
      password: undefined,
    });
  });

  it('names every incomplete or contradictory variable, never a secret value', () => {
    const { problems } = parseConnections({
      DATABRICKS_TOKEN: 'dapi-secret-value',
      AIRFLOW_URL: 'https://a',
      AIRFLOW_USERNAME: 'u',
      AIRFLOW_TEAM_URL: 'https://b',
      AIRFLOW_TEAM_USERNAME: 'u',
      AIRFLOW_TEAM_PASSWORD: 'p',
      AIRFLOW_TEAM_TOKEN: 't',
      AIRFLOW_TEAM_API_VERSION: 'v3',
      DBT_CLOUD_ACCOUNT_ID: 'acme',
      DBT_CLOUD_API_TOKEN: 't',
      LIVY_URL: 'ftp://livy',
      LIVY_X_URL: 'https://user:pw@livy',
      LIVY_USERNAME: 'only-user',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'DATABRICKS_HOST: must be set (DATABRICKS_TOKEN is set)',
        'AIRFLOW_PASSWORD: must be set together with AIRFLOW_USERNAME',
        'AIRFLOW_TEAM_TOKEN: set either it or AIRFLOW_TEAM_USERNAME/AIRFLOW_TEAM_PASSWORD, not both',
        'AIRFLOW_TEAM_API_VERSION: must be one of v1, v2, auto',
        'DBT_CLOUD_ACCOUNT_ID: must be a number',
        'LIVY_URL: must be an http(s) URL',
        'LIVY_X_URL: must not carry credentials (use the *_USERNAME/*_PASSWORD/*_TOKEN variables)',
        'LIVY_PASSWORD: must be set together with LIVY_USERNAME',
      ]),
    );
    expect(problems.join('\n')).not.toContain('dapi-secret-value');
  });

  it('requires credentials for Airflow and at least one upstream', () => {
    expect(parseConnections({ AIRFLOW_URL: 'https://a' }).problems).toEqual([
      'AIRFLOW_USERNAME/AIRFLOW_PASSWORD or AIRFLOW_TOKEN: must be set',
    ]);
    expect(parseConnections({ PATH: '/bin' }).problems[0]).toMatch(/^no upstream configured/);
    expect(
      parseConnections({ DBT_CLOUD_URL: 'https://emea.dbt.com', LIVY_URL: 'http://l' }).connections.dbtCloud
        .size,
    ).toBe(0);
  });

  it('trims values, as a Secret made with --from-file ends in a newline (the credential sent has none)', () => {
    const { connections, problems } = parseConnections({
      DATABRICKS_HOST: ' https://adb.example.net\n',
      DATABRICKS_TOKEN: 'dapi-with-newline\n',
      LIVY_URL: 'http://livy:8998',
      LIVY_USERNAME: 'argo\n',
      LIVY_PASSWORD: '  livy-secret\n',
      AIRFLOW_URL: 'https://airflow.example.com',
      AIRFLOW_TOKEN: '\n',
    });
    expect(connections.databricks.get('default')).toMatchObject({ token: 'dapi-with-newline' });
    expect(connections.livy.get('default')).toMatchObject({ username: 'argo', password: 'livy-secret' });
    expect(problems).toEqual(['AIRFLOW_USERNAME/AIRFLOW_PASSWORD or AIRFLOW_TOKEN: must be set']);
  });

  it('ignores Kubernetes service-link variables', () => {
    const { connections, problems } = parseConnections({
      DATABRICKS_SERVICE_HOST: '10.0.0.1',
      DATABRICKS_PROXY_SERVICE_HOST: '10.0.0.2',
      LIVY_SERVICE_HOST: '10.0.0.3',
      LIVY_PORT_8998_TCP_ADDR: '10.0.0.3',
      LIVY_URL: 'http://livy:8998',
    });
    expect(problems).toEqual([]);
    expect(connections.databricks.size).toBe(0);
  });

  it('normalises connection names from bodies', () => {
    expect(upstreamId(undefined)).toBe('default');
    expect(upstreamId('Prod-EU')).toBe('prod_eu');
  });
});

describe('DataJobEnv', () => {
  it('loads through the kit, with connections and defaults', () => {
    const env = loadEnv(DataJobEnv, { LIVY_URL: 'http://livy:8998', CANCEL_ON_SHUTDOWN: 'yes' });
    expect(env.CANCEL_ON_SHUTDOWN).toBe(true);
    expect(env.UPSTREAM_TIMEOUT).toBe('10s');
    expect(env.connections.livy.has('default')).toBe(true);
  });

  it('fails start-up naming each bad variable', () => {
    const load = (): unknown =>
      loadEnv(DataJobEnv, {
        LIVY_URL: 'http://l',
        UPSTREAM_TIMEOUT: '1h',
        DATABRICKS_PROD_HOST: 'https://x',
      });
    expect(load).toThrow(EnvValidationError);
    expect(load).toThrow(
      /UPSTREAM_TIMEOUT: must be a Go duration .*; DATABRICKS_PROD_TOKEN: must be set \(DATABRICKS_PROD_HOST is set\)$/,
    );
  });
});
