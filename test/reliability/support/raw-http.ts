import { Agent, request } from 'node:http';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

export type RawOutcome =
  | { kind: 'reply'; status: number; text: string; ms: number }
  | { kind: 'error'; error: string; code?: string; ms: number };

/** Keep-alive connections, like the agent's Go client reusing its transport; bounded so a fuzz run cannot exhaust ports. */
export function keepAliveAgent(maxSockets = 4): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

/**
 * Sends exactly the bytes asked for (any method, path, header value or body, valid UTF-8 or not) and never
 * throws: a reply, or the network error, each with the time it took. `timeoutMs` bounds the whole exchange.
 */
export function sendRaw(
  baseUrl: string,
  req: RawRequest,
  options: { timeoutMs: number; agent?: Agent },
): Promise<RawOutcome> {
  const url = new URL(baseUrl);
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const timer: { id?: NodeJS.Timeout } = {};
    const done = (outcome: RawOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer.id);
      resolve(outcome);
    };
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const headers: Record<string, string | number> = { ...req.headers };
    const framed = Object.keys(headers).some((h) =>
      ['content-length', 'transfer-encoding'].includes(h.toLowerCase()),
    );
    if (body && !framed) headers['Content-Length'] = body.length;
    let r: ReturnType<typeof request>;
    try {
      r = request(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.path,
          headers,
          agent: options.agent ?? false,
          insecureHTTPParser: true,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            done({
              kind: 'reply',
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              ms: ms(),
            }),
          );
          res.on('error', (err: NodeJS.ErrnoException) =>
            done({ kind: 'error', error: err.message, code: err.code, ms: ms() }),
          );
        },
      );
    } catch (err) {
      // Node refuses to send some requests at all (e.g. a control character in a header): nothing reached the plugin.
      return done({ kind: 'error', error: (err as Error).message, code: 'NOT_SENT', ms: ms() });
    }
    timer.id = setTimeout(() => {
      done({ kind: 'error', error: `no reply within ${options.timeoutMs} ms`, code: 'HANG', ms: ms() });
      r.destroy();
    }, options.timeoutMs);
    r.on('error', (err: NodeJS.ErrnoException) =>
      done({ kind: 'error', error: err.message, code: err.code, ms: ms() }),
    );
    r.end(body);
  });
}
