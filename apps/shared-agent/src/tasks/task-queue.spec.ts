import { TaskQueue } from './task-queue.js';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('TaskQueue', () => {
  it('runs at most maxInFlight at once; the rest wait, none is dropped', async () => {
    const release: Array<() => void> = [];
    let running = 0;
    let peak = 0;
    const done: string[] = [];
    const queue = new TaskQueue(2, async (key, node) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((r) => release.push(r));
      running--;
      done.push(`${key}:${node}`);
    });
    for (const n of ['a', 'b', 'c', 'd', 'e']) queue.push('ns/wf', n);
    await tick();
    expect([queue.inFlight, queue.queued]).toEqual([2, 3]);
    while (done.length < 5) {
      release.shift()?.();
      await tick();
      await tick();
    }
    expect(peak).toBe(2);
    expect(done).toEqual(['ns/wf:a', 'ns/wf:b', 'ns/wf:c', 'ns/wf:d', 'ns/wf:e']);
  });

  it('lets TaskSets take turns, and queues a task once', async () => {
    const order: string[] = [];
    const queue = new TaskQueue(1, async (key, node) => {
      order.push(`${key}:${node}`);
      await tick();
    });
    for (const n of ['1', '2', '3']) queue.push('big', n);
    queue.push('big', '2');
    queue.push('small', 'x');
    queue.push('small', 'y');
    expect([queue.inFlight, queue.queued]).toEqual([1, 4]);
    for (let i = 0; i < 20; i++) await tick();
    expect(order).toEqual(['big:1', 'big:2', 'small:x', 'big:3', 'small:y']);
  });

  it('gives one namespace at most maxPerNamespace slots, and lets namespaces take turns before TaskSets', async () => {
    const started: string[] = [];
    const hang = new Promise<void>(() => undefined);
    const queue = new TaskQueue(
      4,
      async (key, node) => {
        started.push(`${key}:${node}`);
        if (key.startsWith('busy/')) await hang;
        else await tick();
      },
      2,
    );
    for (let i = 0; i < 10; i++) queue.push(`busy/wf-${i}`, 'n');
    expect([queue.inFlight, queue.queued]).toEqual([2, 8]);
    queue.push('quiet/a', '1');
    queue.push('quiet/a', '2');
    queue.push('quiet/b', '1');
    expect(started.slice(2)).toEqual(['quiet/a:1', 'quiet/a:2']);
    for (let i = 0; i < 10; i++) await tick();
    expect(started.slice(2)).toEqual(['quiet/a:1', 'quiet/a:2', 'quiet/b:1']);
    expect([queue.inFlight, queue.queued]).toEqual([2, 8]);
  });

  it('drops the waiting tasks of a TaskSet, and settles when its running ones end', async () => {
    let release!: () => void;
    const ran: string[] = [];
    const queue = new TaskQueue(1, async (_key, node) => {
      ran.push(node);
      if (node === 'slow') await new Promise<void>((r) => (release = r));
    });
    queue.push('k', 'slow');
    queue.push('k', 'never');
    queue.drop('k');
    expect(await queue.settle(['k'], 20)).toBe(false);
    release();
    expect(await queue.settle(['k'], 1000)).toBe(true);
    await tick();
    expect(ran).toEqual(['slow']);
  });
});
