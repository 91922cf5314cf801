import type { ExecuteTemplateReply } from '@app/contract';
import { ExecutionLedger } from './execution-ledger.js';
import { MemoryLedgerStore } from './ledger-store.js';

const ok: ExecuteTemplateReply = { node: { phase: 'Succeeded' } };
const bad: ExecuteTemplateReply = { node: { phase: 'Failed', message: 'x' } };
const late = (): ExecuteTemplateReply => ({ node: { phase: 'Running', message: 'late' }, requeue: '5s' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ExecutionLedger', () => {
  it('runs concurrent identical work once (single-flight)', async () => {
    const ledger = new ExecutionLedger(new MemoryLedgerStore());
    let runs = 0;
    const work = async () => {
      runs++;
      await sleep(30);
      return ok;
    };
    const outcomes = await Promise.all(Array.from({ length: 16 }, () => ledger.run('k', work, 1000, late)));
    expect(runs).toBe(1);
    expect(outcomes.map((o) => o.source).sort()).toEqual(['executed', ...Array(15).fill('joined')]);
  });

  it('replays Succeeded, retries after Failed', async () => {
    const ledger = new ExecutionLedger(new MemoryLedgerStore());
    let runs = 0;
    await ledger.run('s', async () => (runs++, ok), 1000, late);
    expect((await ledger.run('s', async () => (runs++, ok), 1000, late)).source).toBe('replayed');
    expect(runs).toBe(1);
    await ledger.run('f', async () => (runs++, bad), 1000, late);
    await ledger.run('f', async () => (runs++, bad), 1000, late);
    expect(runs).toBe(3);
  });

  it('answers at the deadline and keeps a late Failed result for exactly one caller', async () => {
    const ledger = new ExecutionLedger(new MemoryLedgerStore());
    const first = await ledger.run('d', async () => (await sleep(60), bad), 10, late);
    expect(first).toMatchObject({ source: 'deadline', reply: late() });
    await sleep(80);
    expect((await ledger.run('d', async () => ok, 1000, late)).reply).toEqual(bad);
    expect((await ledger.run('d', async () => ok, 1000, late)).reply).toEqual(ok);
  });

  it('gives the deadline reply the entry as of the call: its transient failures and what the last one said', async () => {
    const ledger = new ExecutionLedger(new MemoryLedgerStore());
    await ledger.run('t', async () => late(), 1000, late);
    await ledger.update('t', (e) => {
      e.transientFailures = 2;
      e.lastFailure = 'jenkins: POST /job/x/build: ECONNREFUSED';
    });
    const seen: unknown[] = [];
    const outcome = await ledger.run(
      't',
      async () => (await sleep(60), ok),
      10,
      (entry) => {
        seen.push({ failures: entry.transientFailures, last: entry.lastFailure });
        return late();
      },
    );
    expect(outcome.source).toBe('deadline');
    expect(seen).toEqual([{ failures: 2, last: 'jenkins: POST /job/x/build: ECONNREFUSED' }]);
  });

  it('answers succeeded() only for a remembered Succeeded reply, never while work is in flight', async () => {
    const ledger = new ExecutionLedger(new MemoryLedgerStore());
    expect(await ledger.succeeded('k')).toBeUndefined();
    await ledger.run('f', async () => bad, 1000, late);
    expect(await ledger.succeeded('f')).toBeUndefined();
    void ledger.run('k', async () => (await sleep(30), ok), 1000, late);
    await sleep(5);
    expect(await ledger.succeeded('k')).toBeUndefined();
    await sleep(40);
    expect(await ledger.succeeded('k')).toEqual(ok);
  });

  it('counts calls and keeps handler state per key', async () => {
    const ledger = new ExecutionLedger(new MemoryLedgerStore());
    await ledger.run('k', async () => late(), 1000, late);
    await ledger.saveState('k', { runId: 42 });
    const outcome = await ledger.run('k', async () => late(), 1000, late);
    expect(outcome.entry).toMatchObject({ calls: 2, state: { runId: 42 } });
  });

  it('drain waits for running work', async () => {
    const ledger = new ExecutionLedger(new MemoryLedgerStore());
    await ledger.run('x', async () => (await sleep(40), ok), 1, late); // answers at the 1 ms deadline
    expect(ledger.inFlight).toBe(1);
    expect(await ledger.drain(1000)).toBe(true);
    expect(ledger.inFlight).toBe(0);
  });
});

describe('MemoryLedgerStore', () => {
  it('is bounded: the least recently used entries go first', async () => {
    const store = new MemoryLedgerStore({ maxEntries: 3 });
    const entry = (n: number) => ({
      calls: n,
      transientFailures: 0,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    for (const k of ['a', 'b', 'c']) await store.set(k, entry(1));
    await store.get('a');
    await store.set('d', entry(1));
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBeDefined();
  });

  it('expires idle entries', async () => {
    let now = 1000;
    const store = new MemoryLedgerStore({ maxIdleMs: 100, now: () => now });
    await store.set('a', { calls: 1, transientFailures: 0, createdAt: now, updatedAt: now });
    now += 101;
    expect(await store.get('a')).toBeUndefined();
  });
});
