import type { HeldTaskSet } from './taskset.js';
import { TaskSetStore } from './taskset-store.js';

const taskSet = (name: string, bytes: number, shard = 0): HeldTaskSet => ({
  key: `ns/${name}`,
  namespace: 'ns',
  name,
  uid: name,
  resourceVersion: '1',
  workflowUid: name,
  shard,
  tasks: {},
  finals: new Set(),
  bytes,
});

describe('TaskSetStore: the memory budget of watched TaskSets', () => {
  it('holds TaskSets within the budget; past it they wait in line, first come first read', () => {
    const store = new TaskSetStore(1000);
    expect(store.put(taskSet('a', 600))).toBe('held');
    expect(store.put(taskSet('b', 600))).toBe('deferred');
    expect(store.put(taskSet('c', 100))).toBe('deferred'); // fits, but b waited first
    expect([store.size, store.waiting, store.bytes]).toEqual([1, 2, 600]);
    expect(store.nextDeferred()).toMatchObject({ name: 'b' });
    store.remove('ns/a');
    expect(store.put(taskSet('c', 100))).toBe('deferred');
    expect(store.put(taskSet('b', 600))).toBe('held');
    expect(store.nextDeferred()).toMatchObject({ name: 'c' });
    expect(store.put(taskSet('c', 100))).toBe('held');
    expect([store.size, store.waiting, store.bytes]).toEqual([2, 0, 700]);
  });

  it('keeps a held TaskSet held as it grows, and holds one larger than the budget when nothing else is', () => {
    const store = new TaskSetStore(1000);
    expect(store.put(taskSet('huge', 5000))).toBe('held');
    expect(store.put(taskSet('huge', 6000))).toBe('held');
    expect(store.bytes).toBe(6000);
    expect(store.put(taskSet('next', 10))).toBe('deferred');
  });

  it('drops the TaskSets of lost shards, held or waiting', () => {
    const store = new TaskSetStore(1000);
    store.put(taskSet('a', 600, 1));
    store.put(taskSet('b', 600, 2));
    store.put(taskSet('c', 600, 1));
    expect(store.dropShards(new Set([1]))).toEqual(['ns/a']);
    expect([store.size, store.waiting, store.bytes]).toEqual([0, 1, 0]);
    expect(store.nextDeferred()).toMatchObject({ name: 'b' });
  });
});
