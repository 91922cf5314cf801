// Conformance cases 31 and 32 (async dispatch) and a burst of 200 concurrent events against 1 worker.
import { binding, endpoint, send, submitWft } from './support.js';

const EVENT = '/api/v1/events/argo/';
const QUEUE_FULL = '{"code":14,"message":"operation queue full"}';

describe('conformance: async dispatch', () => {
  it('the seed defaults: async, 64 queued, 4 workers', async () => {
    const ep = await endpoint([], { asyncDispatch: undefined });
    expect(ep.settings).toMatchObject({ asyncDispatch: true, queueSize: 64, workers: 4 });
  });

  it('31 async accept: 200 {} at once; binding errors show only as Events', async () => {
    const ep = await endpoint(
      [
        binding('ok', { selector: 'true', submit: submitWft() }),
        binding('broken', { selector: 'true', submit: { workflowTemplateRef: { name: 'not-found' } } }),
      ],
      { asyncDispatch: true, queueSize: 1, workers: 1 },
    );
    const started = Date.now();
    const res = await send(ep.url, EVENT, { body: {} });
    expect([res.status, res.text]).toEqual([200, '{}']);
    expect(Date.now() - started).toBeLessThan(1000);
    await ep.idle();
    expect(ep.workflows()).toHaveLength(1);
    expect(ep.events().map((e) => [e.involvedObject.name, e.message])).toEqual([
      [
        'broken',
        'failed to dispatch event: failed to get workflow template: workflowtemplates.argoproj.io "not-found" not found',
      ],
    ]);
  });

  it('32 queue full: queue 1, workers paused → 200 then 503; after draining the queued event was dispatched', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft({ n: 'payload.n' }) })], {
      asyncDispatch: true,
      queueSize: 1,
      workers: 1,
    });
    ep.pauseWorkers();
    expect((await send(ep.url, EVENT, { body: { n: 1 } })).status).toBe(200);
    const full = await send(ep.url, EVENT, { body: { n: 2 } });
    expect([full.status, full.text, full.headers['content-type']]).toEqual([
      503,
      QUEUE_FULL,
      'application/json',
    ]);
    expect(ep.workflows()).toEqual([]);
    ep.resumeWorkers();
    await ep.idle();
    expect(ep.workflows().map((w) => w.spec.arguments!.parameters[0]!.value)).toEqual(['1']);
    expect((await send(ep.url, EVENT, { body: { n: 3 } })).status).toBe(200);
  });

  it('a burst of 200 concurrent events, 1 worker, queue 8: some 503s; every accepted event is dispatched once', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft({ n: 'payload.n' }) })], {
      asyncDispatch: true,
      queueSize: 8,
      workers: 1,
      dispatchDelayMs: 20,
    });
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, n) => send(ep.url, EVENT, { body: { n } }).then((r) => ({ n, ...r }))),
    );
    const accepted = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => r.status === 503 && r.text === QUEUE_FULL)).toBe(true);
    expect(accepted.length).toBeGreaterThanOrEqual(9);
    await ep.idle();
    const dispatched = ep.workflows().map((w) => Number(w.spec.arguments!.parameters[0]!.value));
    expect(dispatched.sort((a, b) => a - b)).toEqual(accepted.map((r) => r.n).sort((a, b) => a - b));
  });

  it('a burst against paused workers: exactly queue-size events are accepted', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft() })], {
      asyncDispatch: true,
      queueSize: 8,
      workers: 1,
    });
    ep.pauseWorkers();
    const replies = await Promise.all(Array.from({ length: 200 }, () => send(ep.url, EVENT, { body: {} })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(8);
    expect(replies.filter((r) => r.status === 503)).toHaveLength(192);
    ep.resumeWorkers();
    await ep.idle();
    expect(ep.workflows()).toHaveLength(8);
  });

  it('close() drains the queue like the server on shutdown', async () => {
    const ep = await endpoint([binding('b1', { selector: 'true', submit: submitWft() })], {
      asyncDispatch: true,
      dispatchDelayMs: 20,
      workers: 1,
    });
    await Promise.all(Array.from({ length: 5 }, () => send(ep.url, EVENT, { body: {} })));
    await ep.close();
    expect(ep.workflows()).toHaveLength(5);
  });
});
