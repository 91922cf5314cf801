import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServeProcess, type ServeProcess } from '../../libs/events/test/serve-process.js';
import { flood, type FloodOutcome } from './support/flood.js';
import { report } from './support/report.js';

/**
 * The local event endpoint (`npm run events -- serve`) against hostile clients, as a process: 100 MiB bodies
 * with a wrong token (measured before the fix: six of them took it from 87 to 944 MiB) and with a valid one
 * (past the body limit). Its peak RSS must stay flat and it must answer a good event afterwards.
 */
const MiB = 1024 * 1024;
const TOKEN = 'reliability-events-token-5d1c';
const FLOODS = 6;
/** The body limit of `serve` (its default). */
const MAX_BODY_MIB = 4;
/** What allocator noise and socket buffers can add on top of the bodies legitimately held, far from 100 MiB each. */
const SLACK_MIB = 40;

let dir: string;
let serve: ServeProcess;
const lines: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reliability-events-'));
  writeFileSync(join(dir, 'tokens.yaml'), `tokens:\n  - token: ${TOKEN}\n    subject: reliability\n`);
  serve = await startServeProcess(['--bindings', dir, '--token-file', join(dir, 'tokens.yaml')]);
});
afterAll(async () => {
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
  report(`event endpoint: ${lines.join('; ')}`);
});

const describeOutcomes = (outcomes: FloodOutcome[]): string => {
  const kinds = new Map<string, number>();
  for (const o of outcomes) {
    const kind = o.status ? String(o.status) : (o.error ?? 'nothing');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const sent = outcomes.reduce((n, o) => n + o.sent, 0) / MiB;
  return `${[...kinds].map(([k, n]) => `${k}×${n}`).join(' ')}, ${sent.toFixed(0)} MiB sent before the answer`;
};

/** `heldMiB`: what each request may legitimately hold (nothing before the token check, the limit after it). */
async function attack(
  label: string,
  headers: Record<string, string>,
  heldMiB: number,
): Promise<FloodOutcome[]> {
  const before = serve.memory();
  const outcomes = await Promise.all(
    Array.from({ length: FLOODS }, () =>
      flood(serve.url, { path: '/api/v1/events/argo/x', headers, bytes: 100 * MiB }),
    ),
  );
  const after = serve.memory();
  lines.push(
    `${FLOODS} × 100 MiB ${label}: peak RSS ${before.peakMiB.toFixed(0)} → ${after.peakMiB.toFixed(0)} MiB (${describeOutcomes(outcomes)})`,
  );
  expect(after.peakMiB - before.rssMiB).toBeLessThan(FLOODS * heldMiB + SLACK_MIB);
  return outcomes;
}

describe('event endpoint: big bodies do not reach memory', () => {
  it('with a wrong token: 401 before a byte of the body is read', async () => {
    const outcomes = await attack('with a wrong token', { Authorization: 'Bearer wrong' }, 0);
    // The reply is 401; a client still sending may see the connection close instead of reading it.
    for (const o of outcomes) expect(o.status === 401 || o.error !== undefined).toBe(true);
    expect(outcomes.some((o) => o.status === 401)).toBe(true);
  }, 60_000);

  it('with a valid token: refused at the body limit (429 ResourceExhausted), not buffered', async () => {
    const outcomes = await attack('with a valid token', { Authorization: `Bearer ${TOKEN}` }, MAX_BODY_MIB);
    for (const o of outcomes) expect(o.status === 429 || o.error !== undefined).toBe(true);
  }, 60_000);

  it('is still up and answers a good event', async () => {
    const res = await fetch(`${serve.url}/api/v1/events/argo/x`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: '{"ok":true}',
    });
    expect([res.status, await res.text()]).toEqual([200, '{}']);
    const count = await fetch(`${serve.url}/__stand-in/count`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(await count.json()).toEqual({ name: 'argo-server', count: 1 });
  });
});
