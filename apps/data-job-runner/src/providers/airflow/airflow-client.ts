import type { AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';
import { UpstreamError, type Redactor } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { AirflowConnection } from './airflow-settings.js';
import { isJson, upstreamStatus } from '../upstream-reply.js';

export type AirflowApiVersion = 'v1' | 'v2';

/** `{detail}` in all its shapes: v1 problem+json text, v2 text, v2 validation list, v2 unique-constraint object. */
function describe(response: AxiosResponse): string | undefined {
  const d = response.data;
  if (!isJson(d)) return undefined;
  const detail = d.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .filter(isJson)
      .map((e) => `${Array.isArray(e.loc) ? e.loc.join('.') : 'body'}: ${String(e.msg)}`)
      .join('; ');
  }
  if (isJson(detail))
    return [detail.reason, detail.message].filter((x) => typeof x === 'string').join(': ') || undefined;
  return undefined;
}

/**
 * HTTP access to one Airflow: the API version (configured, or probed once), and auth: Basic (v1 with a
 * username), a static bearer token, or (v2 with a username) a JWT from `POST /auth/token` that is fetched again
 * when a request answers 401. Issued JWTs are added to the redactor.
 */
export class AirflowClient {
  private readonly http: AxiosInstance;
  private version?: Promise<AirflowApiVersion>;
  private jwt?: Promise<string>;

  constructor(
    readonly connection: AirflowConnection,
    timeoutMs: number,
    private readonly redactor: Redactor,
  ) {
    this.http = createUpstreamClient({
      upstream: 'airflow',
      baseURL: connection.url,
      headers: connection.token ? { Authorization: `Bearer ${connection.token}` } : undefined,
      timeoutMs,
      describe,
    });
  }

  apiVersion(signal?: AbortSignal): Promise<AirflowApiVersion> {
    if (this.connection.apiVersion !== 'auto') return Promise.resolve(this.connection.apiVersion);
    this.version ??= this.probe(signal).catch((err: unknown) => {
      this.version = undefined;
      throw err;
    });
    return this.version;
  }

  /** A request under `/api/<version>`; returns the reply body. */
  async request(config: AxiosRequestConfig & { url: string }): Promise<unknown> {
    const version = await this.apiVersion(config.signal as AbortSignal | undefined);
    const send = async (): Promise<unknown> =>
      (
        await this.http.request({
          ...config,
          url: `/api/${version}${config.url}`,
          ...(await this.auth(version, config.signal as AbortSignal | undefined)),
        })
      ).data;
    if (!this.usesJwt(version)) return send();
    try {
      return await send();
    } catch (err) {
      if (upstreamStatus(err) !== 401) throw err;
      this.jwt = undefined; // expired: fetch a new one, once
      return send();
    }
  }

  private usesJwt(version: AirflowApiVersion): boolean {
    return version === 'v2' && !this.connection.token && this.connection.username !== undefined;
  }

  private async auth(version: AirflowApiVersion, signal?: AbortSignal): Promise<AxiosRequestConfig> {
    const { username, password, token } = this.connection;
    if (token || username === undefined || password === undefined) return {};
    if (version === 'v1') return { auth: { username, password } };
    this.jwt ??= this.fetchJwt(username, password, signal).catch((err: unknown) => {
      this.jwt = undefined;
      throw err;
    });
    return { headers: { Authorization: `Bearer ${await this.jwt}` } };
  }

  private async fetchJwt(username: string, password: string, signal?: AbortSignal): Promise<string> {
    const { data } = await this.http.post('/auth/token', { username, password }, { signal });
    const token = isJson(data) ? data.access_token : undefined;
    if (typeof token !== 'string' || token === '')
      throw UpstreamError.permanent('airflow: POST /auth/token returned no access_token');
    this.redactor.add(token);
    return token;
  }

  /** v2 when /api/v2/version exists (answers, or asks for credentials), else v1, else a clear failure. */
  private async probe(signal?: AbortSignal): Promise<AirflowApiVersion> {
    for (const version of ['v2', 'v1'] as const) {
      try {
        const { data } = await this.http.get(`/api/${version}/version`, { signal });
        if (isJson(data) && typeof data.version === 'string') return version;
      } catch (err) {
        const status = upstreamStatus(err);
        if (status === 401 || status === 403) return version;
        if (status !== 404 && status !== 405) throw err;
      }
    }
    throw UpstreamError.permanent(
      `airflow: no Airflow REST API at ${this.connection.url} (neither /api/v2/version nor /api/v1/version answered); check AIRFLOW_URL or set AIRFLOW_API_VERSION`,
    );
  }
}
