import { request } from 'node:http';

export interface ContractReply {
  status: number;
  text: string;
  json?: { node?: { phase?: string; message?: string; outputs?: unknown }; requeue?: string };
}

/** One POST /api/v1/template.execute on a fresh connection (as the agent's first call does). */
export function postExecute(
  port: number,
  token: string,
  body: string,
  timeoutMs = 30_000,
): Promise<ContractReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/template.execute',
        agent: false,
        timeout: timeoutMs,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: ContractReply['json'];
          try {
            json = JSON.parse(text) as ContractReply['json'];
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no reply within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

const retriable = new Set(['ECONNREFUSED', 'ECONNRESET']);

/**
 * Calls until the server answers, retrying refused connections every `intervalMs` (the agent retries
 * connection-refused too, but with a 1 s backoff; a short interval measures when the sidecar is ready).
 */
export async function firstReply(
  port: number,
  token: string,
  body: string,
  deadline: number,
  intervalMs = 2,
): Promise<ContractReply> {
  for (;;) {
    try {
      return await postExecute(port, token, body);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (!retriable.has(code) || performance.now() > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
