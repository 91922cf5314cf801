// A small Kubernetes API client: JSON requests and watches over HTTPS with a bearer token (or a client
// certificate) and the cluster's CA, for the shared agent and the Argo stack's own processes. Every reply is
// bounded in size and time; watches resume from the last version seen, take bookmarks, and relist on 410.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { TokenFileSource, type KubeConnection } from './kube-connection.js';
import { KubeError } from './kube-errors.js';

export { KubeError, isTransientKubeError } from './kube-errors.js';
export type { KubeConnection } from './kube-connection.js';

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface KubeObject {
  metadata: { name?: string; namespace?: string; resourceVersion?: string; uid?: string };
}

export interface KubeClientOptions {
  /** Longest a request (not a watch) may take, headers and body (default 30 s). */
  timeoutMs?: number;
  /** Largest reply body read (default 64 MiB); a list is read in pages well under it. */
  maxBody?: number;
  /** Largest single watch event (default 16 MiB; etcd stores objects up to 1.5 MiB). */
  maxEvent?: number;
  /** Most connections for requests (watches have their own). */
  maxSockets?: number;
  userAgent?: string;
}

export interface WatchOptions {
  /** A label or field selector query (`labelSelector=a%3Db`). */
  query?: string;
  /** Called after each complete (re)list, once its items went through onEvent. */
  onSynced?: () => void;
  /** Items per list page (default 500). */
  pageSize?: number;
  /** Told of each failure the watch recovers from (it resumes, or relists after a 410). */
  onError?: (err: unknown) => void;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  maxBody: 64 * 1024 * 1024,
  maxEvent: 16 * 1024 * 1024,
  maxSockets: 32,
  userAgent: 'executor-plugins/argo-agent',
};

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

export class KubeClient {
  private readonly options: typeof DEFAULTS;
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private readonly watchAgent: HttpAgent;
  private readonly tokens?: TokenFileSource;

  constructor(
    readonly connection: KubeConnection,
    options: KubeClientOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.url = new URL(connection.server);
    const tls = {
      ca: connection.ca,
      cert: connection.cert,
      key: connection.key,
      rejectUnauthorized: connection.insecureSkipTlsVerify !== true,
      servername: connection.tlsServerName,
    };
    const secure = this.url.protocol === 'https:';
    const make = (maxSockets: number) =>
      secure
        ? new HttpsAgent({ keepAlive: true, maxSockets, ...tls })
        : new HttpAgent({ keepAlive: true, maxSockets });
    this.agent = make(this.options.maxSockets);
    this.watchAgent = make(Infinity);
    if (connection.tokenFile) this.tokens = new TokenFileSource(connection.tokenFile);
  }

  /** The namespace of the connection (the pod's own in a cluster, the context's with a kubeconfig). */
  get namespace(): string | undefined {
    return this.connection.namespace;
  }

  /** Closes idle connections (in-flight requests and watches end on their own). */
  close(): void {
    this.agent.destroy();
    this.watchAgent.destroy();
  }

  /** One request; a non-2xx answer throws a KubeError with the API's status reason and message. */
  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const text = await this.exchange(method, path, payload, contentType);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A plain-text endpoint such as /readyz: its body, or a KubeError. */
  text(path: string): Promise<string> {
    return this.exchange('GET', path, undefined, undefined, 'text/plain');
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

  /** Every item of a collection, read in pages of `pageSize`; answers the items and the list's version. */
  async list<T extends KubeObject>(
    collection: string,
    query = '',
    pageSize = 500,
  ): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    let next = '';
    for (;;) {
      const params = [query, `limit=${pageSize}`, next && `continue=${encodeURIComponent(next)}`]
        .filter(Boolean)
        .join('&');
      const page = await this.get<{
        metadata: { resourceVersion: string; continue?: string };
        items: T[];
      }>(`${collection}?${params}`);
      items.push(...page.items);
      if (!page.metadata.continue) return { items, resourceVersion: page.metadata.resourceVersion };
      next = page.metadata.continue;
    }
  }

  /**
   * An informer's list and watch: lists the collection (ADDED for each item), then watches from the list's
   * version, calling `onEvent` for each event in order (awaited: a slow consumer slows the stream, nothing is
   * dropped), until `signal` aborts. Bookmarks move the version on; a dropped connection resumes from the
   * last version; a 410 (the version is too old) relists, and an object the relist no longer has gets its
   * DELETED event then.
   */
  async watch<T extends KubeObject>(
    collection: string,
    onEvent: (event: WatchEvent<T>) => Promise<void> | void,
    signal: AbortSignal,
    options: WatchOptions | string = {},
  ): Promise<void> {
    const {
      query = '',
      onSynced,
      onError,
      pageSize = 500,
    } = typeof options === 'string' ? { query: options } : options;
    const known = new Map<string, T>();
    let version: string | undefined;
    let backoff = 500;
    while (!signal.aborted) {
      try {
        if (version === undefined) {
          const list = await this.list<T>(collection, query, pageSize);
          const seen = new Set<string>();
          for (const item of list.items) {
            const key = keyOf(item);
            seen.add(key);
            const type = known.has(key) ? 'MODIFIED' : 'ADDED';
            known.set(key, stub(item));
            await onEvent({ type, object: item });
          }
          for (const [key, last] of known)
            if (!seen.has(key)) {
              known.delete(key);
              await onEvent({ type: 'DELETED', object: last });
            }
          version = list.resourceVersion;
          onSynced?.();
        }
        // Each event (bookmarks too) moves the version on at once, so a connection that breaks mid-stream
        // resumes after the last event delivered, not from where it started.
        await this.stream<T>(collection, query, version, signal, async (event, at) => {
          if (event.type !== 'BOOKMARK') {
            const key = keyOf(event.object);
            if (event.type === 'DELETED') known.delete(key);
            else known.set(key, stub(event.object));
            await onEvent(event);
          }
          version = at ?? version;
        });
        backoff = 500;
      } catch (err) {
        if (signal.aborted) return;
        onError?.(err);
        if (err instanceof KubeError && (err.status === 410 || err.reason === 'Expired')) version = undefined;
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, 30_000);
      }
    }
  }

  /** One watch connection, until the server ends it; each event is handed on with its version. */
  private async stream<T extends KubeObject>(
    collection: string,
    query: string,
    from: string,
    signal: AbortSignal,
    onEvent: (event: WatchEvent<T>, version: string | undefined) => Promise<void>,
  ): Promise<void> {
    // As client-go's reflector: the server ends each watch after 5–10 min, so no connection lives forever.
    const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
    const params = [
      query,
      'watch=1',
      'allowWatchBookmarks=true',
      `resourceVersion=${encodeURIComponent(from)}`,
      `timeoutSeconds=${timeoutSeconds}`,
    ]
      .filter(Boolean)
      .join('&');
    const res = await this.send('GET', `${collection}?${params}`, undefined, undefined, 'application/json', {
      watch: true,
      idleMs: (timeoutSeconds + 60) * 1000,
    });
    if ((res.statusCode ?? 0) !== 200) {
      const text = await readBounded(res, 64 * 1024).catch(() => '');
      // A rotated token: the next watch reads the file again (the request path retries at once instead).
      if (res.statusCode === 401) this.tokens?.reload();
      throw statusError('GET', collection, res.statusCode ?? 0, text);
    }
    const abort = () => res.destroy();
    signal.addEventListener('abort', abort, { once: true });
    // One decoder per connection: a character split between two reads is completed by the next one.
    const decoder = new StringDecoder('utf8');
    const tooLarge = () =>
      new KubeError(0, 'EventTooLarge', `watch ${collection}: an event over ${this.options.maxEvent} bytes`);
    // The text not yet split into events, and its size in bytes (the bound counts bytes, not characters).
    let buffer = '';
    let bytes = 0;
    try {
      for await (const chunk of res) {
        const searched = buffer.length;
        buffer += decoder.write(chunk as Buffer);
        bytes += (chunk as Buffer).length;
        let start = 0;
        for (
          let newline = buffer.indexOf('\n', searched);
          newline >= 0;
          newline = buffer.indexOf('\n', start)
        ) {
          const line = buffer.slice(start, newline);
          start = newline + 1;
          const size = Buffer.byteLength(line);
          bytes -= size + 1;
          if (size > this.options.maxEvent) throw tooLarge();
          if (!line.trim()) continue;
          const event = JSON.parse(line) as WatchEvent<
            T & { code?: number; reason?: string; message?: string }
          >;
          if (event.type === 'ERROR') {
            const status = event.object.code ?? 0;
            throw new KubeError(
              status,
              event.object.reason ?? '',
              `watch ${collection}: ${status} ${event.object.message ?? ''}`,
              event.object.message ?? '',
            );
          }
          await onEvent(event as WatchEvent<T>, event.object.metadata.resourceVersion);
        }
        buffer = buffer.slice(start);
        if (bytes > this.options.maxEvent) throw tooLarge();
      }
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  private async exchange(
    method: string,
    path: string,
    payload: string | undefined,
    contentType: string | undefined,
    accept = 'application/json',
  ): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const deadline = Date.now() + this.options.timeoutMs;
      const res = await this.send(method, path, payload, contentType, accept, { deadline });
      const text = await readBounded(res, this.options.maxBody, deadline, `${method} ${path}`);
      const status = res.statusCode ?? 0;
      // A rotated token: read the file again and try once more.
      if (status === 401 && this.tokens && attempt === 1) {
        this.tokens.reload();
        continue;
      }
      if (status < 200 || status > 299) throw statusError(method, path, status, text);
      return text;
    }
  }

  private send(
    method: string,
    path: string,
    payload: string | undefined,
    contentType: string | undefined,
    accept: string,
    limits: { deadline?: number; watch?: boolean; idleMs?: number },
  ): Promise<IncomingMessage> {
    const url = new URL(path, this.url);
    const token = this.tokens?.current() ?? this.connection.token;
    const headers: Record<string, string> = {
      Accept: accept,
      'User-Agent': this.options.userAgent,
      ...(token && { Authorization: `Bearer ${token}` }),
      ...(payload !== undefined && {
        'Content-Type': contentType ?? 'application/json',
        'Content-Length': String(Buffer.byteLength(payload)),
      }),
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method, headers, agent: limits.watch ? this.watchAgent : this.agent },
        (res) => {
          if (limits.deadline !== undefined) clearTimeout(timer);
          resolve(res);
        },
      );
      const fail = (why: string) =>
        req.destroy(Object.assign(new Error(`${method} ${url.pathname}: ${why}`), { code: 'ETIMEDOUT' }));
      let timer: NodeJS.Timeout | undefined;
      if (limits.deadline !== undefined)
        timer = setTimeout(
          () => fail(`no answer in ${this.options.timeoutMs} ms`),
          limits.deadline - Date.now(),
        );
      // A watch may be quiet for minutes, but never longer than the server's own timeout.
      if (limits.idleMs !== undefined) req.setTimeout(limits.idleMs, () => fail('watch went silent'));
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(payload);
    });
  }
}

/** What the watch keeps of an object to report its deletion after a relist: its metadata only. */
function stub<T extends KubeObject>(item: T): T {
  return { metadata: { ...item.metadata } } as T;
}

function statusError(method: string, path: string, status: number, text: string): KubeError {
  let reason = '';
  let message = text.slice(0, 500);
  try {
    const parsed = JSON.parse(text) as { reason?: string; message?: string };
    reason = parsed.reason ?? '';
    message = parsed.message ?? message;
  } catch {
    // not a Status object: keep the text
  }
  return new KubeError(status, reason, `${method} ${path}: ${status} ${message}`, message);
}

/** The body as text, refused past `max` bytes or after `deadline`. */
function readBounded(res: IncomingMessage, max: number, deadline?: number, what = 'reply'): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
      res.destroy();
    };
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () => fail(Object.assign(new Error(`${what}: body not read in time`), { code: 'ETIMEDOUT' })),
            Math.max(0, deadline - Date.now()),
          );
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) fail(new KubeError(0, 'TooLarge', `${what}: answer over ${max} bytes`));
      else chunks.push(chunk);
    });
    res.on('end', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    res.on('error', fail);
    res.on('aborted', () =>
      fail(Object.assign(new Error(`${what}: connection closed mid-reply`), { code: 'ECONNRESET' })),
    );
  });
}
