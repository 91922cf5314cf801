import { createServer, type Server } from 'node:http';

export interface ScriptedReply {
  status?: number;
  body?: string;
  /** Delay before answering. */
  delayMs?: number;
  /** Destroy the socket without a reply. */
  reset?: boolean;
}

/**
 * A minimal plugin for testing an agent (the local one, the shared one): it checks the token, records every request and answers
 * from a script (the last entry repeats), or from a function of the request.
 */
export class ScriptedPlugin {
  readonly requests: Array<{
    path: string;
    body: string;
    headers: Record<string, string | string[] | undefined>;
  }> = [];
  private server?: Server;
  url = '';

  constructor(
    readonly token: string,
    private readonly script:
      ScriptedReply[] | ((body: Record<string, unknown>, call: number) => ScriptedReply),
  ) {}

  get calls(): number {
    return this.requests.length;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8'); // one decoder for the whole body: a character split between reads stays whole
      req.on('data', (c: string) => (text += c));
      req.on('end', () => {
        if (req.headers.authorization !== `Bearer ${this.token}`) {
          res.writeHead(403).end();
          return;
        }
        this.requests.push({ path: req.url ?? '', body: text, headers: req.headers });
        const n = this.requests.length;
        const reply =
          typeof this.script === 'function'
            ? this.script(JSON.parse(text) as Record<string, unknown>, n)
            : this.script[Math.min(n, this.script.length) - 1];
        setTimeout(() => {
          if (reply.reset) return req.socket.destroy();
          res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json' });
          res.end(reply.body ?? '');
        }, reply.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** Answers `{}` unless the template is addressed to `key`, then uses `own`. */
export function keyed(key: string, own: (body: Record<string, unknown>, call: number) => ScriptedReply) {
  let ownCalls = 0;
  return (body: Record<string, unknown>): ScriptedReply => {
    const plugin = (body.template as { plugin?: Record<string, unknown> }).plugin ?? {};
    return key in plugin ? own(body, ++ownCalls) : { body: '{}' };
  };
}
