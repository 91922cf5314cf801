// A small Kubernetes API client for the stack's own processes (the pod runner, readiness checks, token requests):
// JSON requests and watches over HTTPS with a bearer token and the stack's CA. Kept to what they need, so the
// stack adds no Kubernetes client library to the repository.
import { request } from 'node:https';
import type { IncomingMessage } from 'node:http';

export interface KubeConnection {
  /** `https://host:port` */
  server: string;
  token: string;
  /** PEM of the CA that signed the API server's certificate. */
  ca: string;
}

export class KubeError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

const MAX_BODY = 64 * 1024 * 1024;

export class KubeClient {
  constructor(private readonly connection: KubeConnection) {}

  /** One request; a non-2xx answer throws a KubeError with the API's status reason and message. */
  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> =
      payload === undefined
        ? {}
        : { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(payload)) };
    const res = await this.send(method, path, headers, payload);
    const text = await readAll(res);
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      let reason = '';
      let message = text.slice(0, 500);
      try {
        const parsed = JSON.parse(text) as { reason?: string; message?: string };
        reason = parsed.reason ?? '';
        message = parsed.message ?? message;
      } catch {
        // not a Status object: keep the text
      }
      throw new KubeError(status, reason, `${method} ${path}: ${status} ${message}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private send(
    method: string,
    path: string,
    headers: Record<string, string>,
    payload: string | undefined,
  ): Promise<IncomingMessage> {
    const url = new URL(path, this.connection.server);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          method,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          ca: this.connection.ca,
          headers: {
            Authorization: `Bearer ${this.connection.token}`,
            Accept: 'application/json',
            ...headers,
          },
        },
        resolve,
      );
      req.on('error', reject);
      req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
      req.end(payload);
    });
  }

  /** A plain-text endpoint such as /readyz: its body, or a KubeError. */
  async text(path: string): Promise<string> {
    const res = await this.send('GET', path, {}, undefined);
    const body = await readAll(res);
    if (res.statusCode !== 200)
      throw new KubeError(res.statusCode ?? 0, '', `GET ${path}: ${res.statusCode} ${body.slice(0, 300)}`);
    return body;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  /** GET that answers undefined for 404. */
  async find<T>(path: string): Promise<T | undefined> {
    try {
      return await this.get<T>(path);
    } catch (err) {
      if (err instanceof KubeError && err.status === 404) return undefined;
      throw err;
    }
  }

  mergePatch<T>(path: string, patch: unknown): Promise<T> {
    return this.call<T>('PATCH', path, patch, 'application/merge-patch+json');
  }

  /**
   * Watches a collection from `resourceVersion` (a list first when not given) and calls `onEvent` for each
   * event, in order, until `signal` aborts. Reconnects from the last seen version; a 410 (expired) relists.
   */
  async watch<T extends { metadata: { resourceVersion?: string } }>(
    collection: string,
    onEvent: (event: WatchEvent<T>) => Promise<void> | void,
    signal: AbortSignal,
    query = '',
  ): Promise<void> {
    let version: string | undefined;
    const sep = query ? '&' : '';
    while (!signal.aborted) {
      try {
        if (version === undefined) {
          const list = await this.get<{ metadata: { resourceVersion: string }; items: T[] }>(
            `${collection}?${query}`,
          );
          for (const item of list.items) await onEvent({ type: 'ADDED', object: item });
          version = list.metadata.resourceVersion;
        }
        const res = await this.send(
          'GET',
          `${collection}?${query}${sep}watch=1&allowWatchBookmarks=true&resourceVersion=${version}&timeoutSeconds=240`,
          {},
          undefined,
        );
        if (res.statusCode !== 200) {
          res.resume();
          throw new Error(`watch ${collection}: ${res.statusCode}`);
        }
        const abort = () => res.destroy();
        signal.addEventListener('abort', abort, { once: true });
        let buffer = '';
        try {
          for await (const chunk of res) {
            buffer += (chunk as Buffer).toString('utf8');
            let newline: number;
            while ((newline = buffer.indexOf('\n')) >= 0) {
              const line = buffer.slice(0, newline);
              buffer = buffer.slice(newline + 1);
              if (!line.trim()) continue;
              const event = JSON.parse(line) as WatchEvent<T & { code?: number }>;
              if (event.type === 'ERROR') {
                if (event.object.code === 410) version = undefined;
                throw new Error(`watch ${collection}: ${JSON.stringify(event.object)}`);
              }
              version = event.object.metadata.resourceVersion ?? version;
              if (event.type !== 'BOOKMARK') await onEvent(event as WatchEvent<T>);
            }
          }
        } finally {
          signal.removeEventListener('abort', abort);
        }
      } catch (err) {
        if (signal.aborted) return;
        if (version === undefined || /410|Expired|too old/.test(String(err))) version = undefined;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }
}

async function readAll(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) {
      res.destroy();
      throw new Error(`answer over ${MAX_BODY} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
