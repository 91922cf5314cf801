import { connect } from 'node:net';
import fc from 'fast-check';
import { startEventEndpoint, type EventEndpoint } from '@app/events';
import { startAnyHarness } from '@app/local-agent';
import { badRequestFamilies } from './support/bad-requests.js';
import { keepAliveAgent, sendRaw } from './support/raw-http.js';
import { replyProblem } from './support/reply-check.js';
import { report, SEED, size } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { coverageLine, discoverApps, probeTarget } from './support/targets.js';

/**
 * `__proto__`, `constructor` and `prototype` keys at every level of the request, with the plugin running in
 * this process (the in-process harness), so the test can look at Object.prototype afterwards: a merge,
 * transform or validation step that writes through such a key would show up here.
 */
const CASES = size(1_000, 10_000);
const apps = discoverApps();
const names = [...apps.targets.map((t) => t.name), 'probe'];
const sweep = new SecretSweep();
let sent = 0;

const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };

function snapshot(): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(PROTOTYPES).map(([name, proto]) => [
      name,
      Reflect.ownKeys(proto).map((k) => {
        const d = Object.getOwnPropertyDescriptor(proto, k)!;
        return `${String(k)}=${'value' in d ? typeof d.value : 'accessor'}`;
      }),
    ]),
  );
}

describe('prototype pollution: hostile keys leave every prototype as it was', () => {
  const before = snapshot();

  afterAll(() => {
    report(
      coverageLine('prototype pollution', {
        targets: names.map((name) => ({ name })) as never,
        skipped: apps.skipped,
      }),
    );
    report(
      `prototype pollution: ${names.length} plugins × ${CASES} requests with __proto__/constructor/prototype keys ` +
        `at every level and Object.prototype names as values (${sent} sent, seed ${SEED}), Object/Array/Function prototypes unchanged, ({}).polluted undefined`,
    );
    expect(sweep.check()).toEqual([]);
  });

  it.each(names)(
    '%s',
    async (name) => {
      const target = name === 'probe' ? await probeTarget() : apps.targets.find((t) => t.name === name)!;
      const upstreams = await target.startUpstreams({ plugins: [], timeScale: 0.01 });
      const env = { ...upstreams.env, ...target.env, CALL_DEADLINE: '2s', LOG_LEVEL: 'info' };
      sweep.addEnv(env);
      const h = await startAnyHarness(await target.definition(), { env });
      sweep.add('agent token', h.token);
      const agent = keepAliveAgent(2);
      try {
        const f = badRequestFamilies({ key: target.key, config: target.config, token: h.token });
        const hostile = fc.oneof(
          { arbitrary: f.protoKeys, weight: 6 },
          { arbitrary: f.protoValues, weight: 3 },
          { arbitrary: f.wrongType, weight: 1 },
          { arbitrary: f.randomConfig, weight: 1 },
        );
        const result = await fc.check(
          fc.asyncProperty(hostile, async (req) => {
            const outcome = await sendRaw(h.url, req, { timeoutMs: 10_000, agent });
            sent++;
            if (outcome.kind === 'reply') sweep.collect(`${name} reply`, outcome.text);
            const problem = replyProblem(outcome);
            if (problem) throw new Error(`${req.kind}: ${problem}`);
            const polluted = ({} as Record<string, unknown>).polluted;
            if (polluted !== undefined)
              throw new Error(`${req.kind}: ({}).polluted is now ${String(polluted)}`);
            expect(snapshot()).toEqual(before);
          }),
          { numRuns: CASES, seed: SEED },
        );
        if (result.failed)
          throw new Error(
            `${name} (seed ${result.seed}): ${(result.errorInstance as Error | undefined)?.message}`,
          );
        expect(snapshot()).toEqual(before);
      } finally {
        agent.destroy();
        sweep.collect(`${name} logs`, h.logText());
        await h.close();
        await upstreams.close();
      }
    },
    size(60_000, 600_000),
  );
});

/** Path segments named after what every plain object inherits: a lookup by request data must find nothing there. */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const ANNOUNCED = 2 * 1024 * 1024;

/**
 * Headers announcing a 2 MiB body, none of it sent: the status line the endpoint answers before any body byte
 * arrives, or what happened instead within `waitMs`.
 */
function headersOnly(url: string, path: string, waitMs: number): Promise<{ status?: number; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : undefined, ms: Math.round(performance.now() - started) });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('connect', () =>
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${ANNOUNCED}\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

describe('prototype pollution: the local event endpoint looks request data up in Maps', () => {
  let endpoint: EventEndpoint;
  beforeAll(async () => {
    endpoint = await startEventEndpoint({
      tokens: {
        tokens: [{ token: 'pollution-token-0123456789', subject: 'sub', permissions: ['*'] }],
        // One namespace does take webhooks, so the interceptor's lookup is live.
        webhookClients: new Map([['argo', new Map([['github', { type: 'github', secret: 'hook-secret' }]])]]),
      },
      host: '127.0.0.1',
      log: () => undefined,
    });
  });
  afterAll(() => endpoint.close());

  it('a webhook to a namespace named after an Object.prototype property is refused with 403 before its body is read', async () => {
    const before = snapshot();
    const outcomes = [];
    for (const name of PROTOTYPE_NAMES) {
      const outcome = await headersOnly(endpoint.url, `/api/v1/events/${name}/hook`, 3000);
      outcomes.push(`${name} ${outcome.status ?? 'no answer'} in ${outcome.ms} ms`);
      expect({ name, status: outcome.status }).toEqual({ name, status: 403 });
    }
    expect(snapshot()).toEqual(before);
    report(
      `prototype pollution: event endpoint: webhooks to ${PROTOTYPE_NAMES.length} namespaces named after Object.prototype properties, ` +
        `each announcing ${ANNOUNCED / 1024 / 1024} MiB and sending none: ${outcomes.join(', ')}`,
    );
  });
});
