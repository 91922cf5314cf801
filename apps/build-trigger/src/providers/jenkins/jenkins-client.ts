import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { JenkinsServer } from './jenkins-settings.js';
import type { JenkinsCrumb } from './jenkins-api.js';

interface Crumb {
  field: string;
  value: string;
  /** The web session the crumb is bound to (Jenkins ≥ 2.176.2). */
  cookie?: string;
}

export interface PostOptions {
  /** Query parameters (e.g. cancelItem's id). */
  params?: Record<string, string | number>;
  /** Form body (buildWithParameters). */
  form?: URLSearchParams;
  /** Non-2xx statuses that are answers, not errors (201/303 + Location, 302 after stop). */
  accept?: number[];
}

/**
 * HTTP to one Jenkins server: API-token Basic auth on every request, JSON reads, and POSTs that fetch a
 * crumb only when Jenkins asks for one (403 "No valid crumb") and then send it with its session cookie.
 */
export class JenkinsClient {
  private readonly http: AxiosInstance;
  private crumb?: Crumb;

  constructor(
    readonly server: JenkinsServer,
    timeoutMs: number,
  ) {
    this.http = createUpstreamClient({
      upstream: 'jenkins',
      baseURL: server.url,
      auth: { username: server.user, password: server.apiToken },
      headers: { Accept: 'application/json' },
      timeoutMs,
    });
  }

  async getJson<T>(path: string, params?: Record<string, string>): Promise<T> {
    const res = await this.http.get<T>(path, { params });
    return res.data;
  }

  async post(path: string, options: PostOptions = {}): Promise<AxiosResponse> {
    try {
      return await this.send(path, options);
    } catch (err) {
      if (!isCrumbRejection(err)) throw err;
      await this.fetchCrumb();
      return this.send(path, options);
    }
  }

  private send(path: string, options: PostOptions): Promise<AxiosResponse> {
    const accept = options.accept ?? [];
    const headers: Record<string, string> = {};
    if (this.crumb) {
      headers[this.crumb.field] = this.crumb.value;
      if (this.crumb.cookie) headers.Cookie = this.crumb.cookie;
    }
    return this.http.post(path, options.form ?? null, {
      params: options.params,
      headers,
      validateStatus: (s) => (s >= 200 && s < 300) || accept.includes(s),
    });
  }

  private async fetchCrumb(): Promise<void> {
    this.crumb = undefined;
    const res = await this.http.get<JenkinsCrumb>('/crumbIssuer/api/json');
    const { crumb, crumbRequestField } = res.data ?? ({} as JenkinsCrumb);
    if (typeof crumb !== 'string' || typeof crumbRequestField !== 'string') {
      throw UpstreamError.permanent('jenkins: GET /crumbIssuer/api/json returned no crumb');
    }
    this.crumb = { field: crumbRequestField, value: crumb, cookie: sessionCookie(res.headers['set-cookie']) };
  }
}

function isCrumbRejection(err: unknown): boolean {
  return err instanceof UpstreamError && err.status === 403 && /no valid crumb/i.test(err.message);
}

/** `JSESSIONID.abc=xyz; Path=/; HttpOnly` (one or more) → `JSESSIONID.abc=xyz`. */
export function sessionCookie(setCookie: unknown): string | undefined {
  const list = Array.isArray(setCookie) ? setCookie : typeof setCookie === 'string' ? [setCookie] : [];
  const pairs = list.map((c) => String(c).split(';')[0].trim()).filter((c) => c.includes('='));
  return pairs.length > 0 ? pairs.join('; ') : undefined;
}
