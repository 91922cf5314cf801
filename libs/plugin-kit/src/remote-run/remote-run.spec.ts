import { UpstreamError } from '../errors/upstream-error.js';
import { createMemoryLogger } from '../logging/plugin-logger.js';
import { Redactor } from '../logging/redactor.js';
import type { TrackedRun } from './active-runs.js';
import type {
  BegunRun,
  CancelResult,
  RemoteRunDriver,
  RemoteRunState,
  RunObservation,
  RunOutcome,
  RunState,
} from './remote-run-driver.js';
import { runOutcome } from './remote-run-driver.js';
import { cancelRemoteRun, executeRemoteRun, type RemoteRunOptions } from './remote-run.js';

interface FakeRun {
  id: string;
  status: RunState;
}
type State = RemoteRunState<string, FakeRun>;

const run = (status: FakeRun['status'], id = 'r1'): FakeRun => ({ id, status });
const seen = (status: FakeRun['status'], extra: Partial<RunObservation<string, FakeRun>> = {}) => ({
  ref: 'ref-1',
  run: run(status),
  ...extra,
});

/** A scripted upstream: each poll and cancel takes the next scripted answer (an Error is thrown). */
class FakeDriver implements RemoteRunDriver<string, FakeRun> {
  begun: BegunRun<string, FakeRun> = { ...seen('queued'), adopted: false };
  polls: Array<RunObservation<string, FakeRun> | Error> = [];
  cancels: Array<FakeRun | undefined | Error> = [];
  calls: string[] = [];
  finishedError?: Error;
  timedOutError?: Error;

  async begin() {
    this.calls.push('begin');
    return this.begun;
  }
  async poll(ref: string) {
    this.calls.push(`poll ${ref}`);
    return this.next(this.polls);
  }
  async cancel(ref: string) {
    this.calls.push(`cancel ${ref}`);
    return this.next(this.cancels);
  }
  outcome({ status }: FakeRun): RunOutcome | undefined {
    return runOutcome(status);
  }
  describe({ id }: FakeRun) {
    return { runId: id };
  }
  progress({ id, status }: FakeRun, state: State) {
    return { message: `${id} ${status} since ${state.startedAt}`, outputs: { id, status } };
  }
  async finished({ id, status }: FakeRun) {
    if (this.finishedError) throw this.finishedError;
    return { message: `${id} ended ${status}`, outputs: { id, status } };
  }
  timedOut(state: State, { after, error }: CancelResult<FakeRun>) {
    if (this.timedOutError) throw this.timedOutError;
    const how = error
      ? `could not cancel: ${(error as Error).message}`
      : `cancelled (${after?.status ?? '?'})`;
    return { message: `${state.run.id} timed out; ${how}`, outputs: { status: 'cancelled' } };
  }
  started({ id, status }: FakeRun, _state: State, adopted: boolean | undefined) {
    return { message: `${adopted ? 'adopted' : 'started'} ${id} (${status})`, outputs: { id } };
  }

  private next<T>(script: Array<T | Error>): T {
    if (script.length === 0) throw new Error('unscripted upstream request');
    const answer = script.shift()!;
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

const T0 = 1_700_000_000_000;

function setup(options: Partial<RemoteRunOptions> = {}) {
  let state: State | undefined;
  let now = T0;
  const tracked = new Map<string, TrackedRun>();
  const { logger, lines } = createMemoryLogger(new Redactor());
  const ctx = {
    key: 'key-1',
    logger,
    signal: new AbortController().signal,
    state: { get: () => state, set: async (next: State) => void (state = next) },
  };
  const driver = new FakeDriver();
  const all: RemoteRunOptions = {
    wait: true,
    pollIntervalMs: 30_000,
    now: () => now,
    tracker: { track: (key, r) => tracked.set(key, r), forget: (key) => tracked.delete(key) },
    ...options,
  };
  return {
    driver,
    tracked,
    call: () => executeRemoteRun(ctx, driver, all),
    cancel: () => cancelRemoteRun(ctx, driver, all),
    state: () => state,
    setState: (next: State) => (state = next),
    /** As after a sidecar restart: the memory is empty. */
    forget: () => (state = undefined),
    advance: (ms: number) => (now += ms),
    logs: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('executeRemoteRun', () => {
  it('repeats a stored final reply without asking the upstream', async () => {
    const t = setup();
    const final = { node: { phase: 'Failed' as const, message: 'done' } };
    t.setState({ startedAt: T0, ref: 'ref-1', run: run('failed'), final });
    expect(await t.call()).toBe(final);
    expect(t.driver.calls).toEqual([]);
  });

  it('starts the run on the first call: Running at the poll interval, state kept, run tracked', async () => {
    const t = setup();
    expect(await t.call()).toEqual({
      node: { phase: 'Running', message: `r1 queued since ${T0}`, outputs: expect.anything() },
      requeue: '30s',
    });
    expect(t.driver.calls).toEqual(['begin']);
    expect(t.state()).toEqual({ startedAt: T0, ref: 'ref-1', run: run('queued') });
    expect([...t.tracked.keys()]).toEqual(['key-1']);
    expect(t.logs().find((l) => l.msg === 'run started')).toMatchObject({ runId: 'r1' });
  });

  it('counts an adopted run from its upstream start, never from the future', async () => {
    const adopted = setup({ noun: 'build' });
    adopted.driver.begun = { ...seen('running', { startedAt: T0 - 5000 }), adopted: true };
    await adopted.call();
    expect(adopted.state()?.startedAt).toBe(T0 - 5000);
    expect(adopted.logs().some((l) => l.msg === 'found the build an earlier call started')).toBe(true);

    const skewed = setup();
    skewed.driver.begun = { ...seen('running', { startedAt: T0 + 5000 }) };
    await skewed.call();
    expect(skewed.state()?.startedAt).toBe(T0);
    expect(skewed.logs().some((l) => l.msg === 'run started (or adopted)')).toBe(true);
  });

  it('with wait: false succeeds right after the start, untracked, and repeats that', async () => {
    const t = setup({ wait: false });
    t.driver.begun = { ...seen('queued'), adopted: true };
    const reply = await t.call();
    expect(reply).toEqual({
      node: { phase: 'Succeeded', message: 'adopted r1 (queued)', outputs: expect.anything() },
    });
    expect(t.tracked.size).toBe(0);
    expect(await t.call()).toBe(reply);
    expect(t.driver.calls).toEqual(['begin']);
  });

  it('with wait: false reports a run already over as started, or as it ended when asked to', async () => {
    const started = setup({ wait: false });
    started.driver.begun = { ...seen('failed'), adopted: true };
    expect((await started.call()).node).toMatchObject({ phase: 'Succeeded', message: 'adopted r1 (failed)' });

    const ended = setup({ wait: false, reportEndedWhenNotWaiting: true });
    ended.driver.begun = { ...seen('failed'), adopted: true };
    expect((await ended.call()).node).toMatchObject({ phase: 'Failed', message: 'r1 ended failed' });

    const going = setup({ wait: false, reportEndedWhenNotWaiting: true });
    expect((await going.call()).node).toMatchObject({ phase: 'Succeeded', message: 'started r1 (queued)' });
  });

  it('finishes at once a run that has ended when it is begun', async () => {
    const t = setup();
    t.driver.begun = { ...seen('succeeded'), adopted: true };
    const reply = await t.call();
    expect(reply).toEqual({
      node: {
        phase: 'Succeeded',
        message: 'r1 ended succeeded',
        outputs: {
          parameters: [
            { name: 'id', value: 'r1' },
            { name: 'status', value: 'succeeded' },
          ],
        },
      },
    });
    expect(t.state()?.final).toEqual(reply);
    expect(t.tracked.size).toBe(0);
    expect(t.logs().find((l) => l.msg === 'run finished')).toMatchObject({
      runId: 'r1',
      outcome: 'succeeded',
    });
  });

  it('polls a provisional start once before replying, keeping the handle if that poll fails', async () => {
    const t = setup();
    t.driver.begun = { ref: 'ref-1', run: run('queued'), provisional: true };
    t.driver.polls = [UpstreamError.transient('503'), seen('running', { startedAt: T0 - 1000 })];
    await expect(t.call()).rejects.toThrow('503');
    expect(t.state()).toEqual({ startedAt: T0, ref: 'ref-1', run: run('queued') });

    t.forget(); // a restarted sidecar begins again (the start is idempotent)
    expect((await t.call()).node?.phase).toBe('Running');
    expect(t.driver.calls).toEqual(['begin', 'poll ref-1', 'begin', 'poll ref-1']);
    expect(t.state()).toMatchObject({ startedAt: T0 - 1000, run: run('running') });
  });

  it('polls exactly once per later call, following a changed handle, until the run ends', async () => {
    const t = setup();
    t.driver.polls = [
      { ref: 'ref-2', run: run('running', 'r2') },
      { ref: 'ref-2', run: run('failed', 'r2') },
    ];
    await t.call();
    expect((await t.call()).node?.message).toBe(`r2 running since ${T0}`);
    expect(t.state()).toMatchObject({ ref: 'ref-2', run: run('running', 'r2') });
    const final = await t.call();
    expect(final.node).toMatchObject({ phase: 'Failed', message: 'r2 ended failed' });
    expect(final.requeue).toBeUndefined();
    expect(await t.call()).toBe(final);
    expect(t.driver.calls).toEqual(['begin', 'poll ref-1', 'poll ref-2']);
    expect(t.tracked.size).toBe(0);
  });

  it.each<[RunOutcome, string]>([
    ['succeeded', 'Succeeded'],
    ['failed', 'Failed'],
    ['cancelled', 'Failed'],
  ])('a run that ended %s is %s', async (outcome, phase) => {
    const t = setup();
    t.driver.polls = [seen(outcome)];
    await t.call();
    expect((await t.call()).node?.phase).toBe(phase);
  });

  it('keeps nothing when fetching the final extras fails, so the next call polls again', async () => {
    const t = setup();
    t.driver.polls = [seen('succeeded'), seen('succeeded')];
    await t.call();
    t.driver.finishedError = UpstreamError.transient('extras: 502');
    await expect(t.call()).rejects.toThrow('extras: 502');
    expect(t.state()?.final).toBeUndefined();
    t.driver.finishedError = undefined;
    expect((await t.call()).node?.phase).toBe('Succeeded');
  });

  describe('timeout', () => {
    const timedOut = async (options: Partial<RemoteRunOptions> = {}) => {
      const t = setup({ timeoutMs: 60_000, ...options });
      await t.call();
      t.advance(60_000);
      return t;
    };

    it('cancels the run upstream and fails, kept final and untracked', async () => {
      const t = await timedOut({ noun: 'build' });
      t.driver.cancels = [run('cancelled')];
      const reply = await t.call();
      expect(reply).toEqual({
        node: {
          phase: 'Failed',
          message: 'r1 timed out; cancelled (cancelled)',
          outputs: { parameters: [{ name: 'status', value: 'cancelled' }] },
        },
      });
      expect(t.driver.calls).toEqual(['begin', 'cancel ref-1']);
      expect(t.state()).toMatchObject({ cancelRequestedAt: T0 + 60_000, final: reply });
      expect(t.tracked.size).toBe(0);
      expect(t.logs().find((l) => l.msg === 'build timed out')).toMatchObject({
        runId: 'r1',
        cancelled: true,
      });
    });

    it('retries a transient cancel error on the next call, a poll interval later when asked', async () => {
      const t = await timedOut({ retryAtPollInterval: true });
      t.driver.cancels = [UpstreamError.transient('502', { status: 502, retryAfterMs: 2000 }), undefined];
      const err = await t.call().catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'transient', message: '502', status: 502, retryAfterMs: 30_000 });
      expect(t.state()?.final).toBeUndefined();
      expect((await t.call()).node?.message).toBe('r1 timed out; cancelled (?)');
    });

    it('reports a cancel the upstream refuses, or fails the call when the driver says so', async () => {
      const reported = await timedOut();
      reported.driver.cancels = [UpstreamError.permanent('403 Forbidden')];
      expect((await reported.call()).node?.message).toBe('r1 timed out; could not cancel: 403 Forbidden');

      const thrown = await timedOut();
      thrown.driver.cancels = [UpstreamError.permanent('403 Forbidden')];
      thrown.driver.timedOutError = UpstreamError.permanent('403 Forbidden');
      await expect(thrown.call()).rejects.toThrow('403 Forbidden');
      expect(thrown.state()?.final).toBeUndefined();
    });

    it('reports a run that ended on its own meanwhile as it ended', async () => {
      const t = await timedOut();
      t.driver.cancels = [run('succeeded')];
      expect((await t.call()).node).toMatchObject({ phase: 'Succeeded', message: 'r1 ended succeeded' });
    });

    it('does not cancel before the timeout', async () => {
      const t = setup({ timeoutMs: 60_000 });
      t.driver.polls = [seen('running')];
      await t.call();
      t.advance(59_999);
      expect((await t.call()).node?.phase).toBe('Running');
      expect(t.driver.calls).toEqual(['begin', 'poll ref-1']);
    });
  });

  describe('requeue', () => {
    it.each<[string, Partial<RemoteRunOptions> & { soon?: boolean }, number, string]>([
      ['the poll interval', {}, 0, '30s'],
      ['soon while a handle is resolved', { soonMs: 5000, soon: true }, 0, '5s'],
      ['not "soon" above the poll interval', { soonMs: 60_000, soon: true }, 0, '30s'],
      ['the time left before the timeout', { timeoutMs: 60_000 }, 50_000, '10s'],
      ['at least one second', { timeoutMs: 60_000 }, 59_900, '1s'],
    ])('is %s', async (_what, { soon, ...options }, elapsed, requeue) => {
      const t = setup(options);
      t.driver.polls = [seen('running', { soon })];
      await t.call();
      t.advance(elapsed);
      expect((await t.call()).requeue).toBe(requeue);
    });
  });

  describe('transient poll errors', () => {
    it('wait at least one poll interval when asked, keeping a longer Retry-After', async () => {
      const t = setup({ retryAtPollInterval: true });
      t.driver.polls = [
        UpstreamError.transient('503', { status: 503 }),
        UpstreamError.transient('429', { status: 429, retryAfterMs: 90_000 }),
      ];
      await t.call();
      await expect(t.call()).rejects.toMatchObject({ kind: 'transient', status: 503, retryAfterMs: 30_000 });
      await expect(t.call()).rejects.toMatchObject({ retryAfterMs: 90_000 });
    });

    it('pass through unchanged otherwise, as do permanent ones', async () => {
      const transient = UpstreamError.transient('503');
      const permanent = UpstreamError.permanent('404');
      const t = setup();
      t.driver.polls = [transient];
      await t.call();
      await expect(t.call()).rejects.toBe(transient);
      const lengthening = setup({ retryAtPollInterval: true });
      lengthening.driver.polls = [permanent];
      await lengthening.call();
      await expect(lengthening.call()).rejects.toBe(permanent);
    });
  });
});

describe('cancelRemoteRun (the workflow was stopped)', () => {
  it('cancels the running run once; the final reply says so and is repeated without asking the upstream', async () => {
    const t = setup({ noun: 'build' });
    await t.call();
    t.driver.cancels.push(run('cancelled'));
    t.advance(5000);
    expect(await t.cancel()).toBe(true);
    expect(t.driver.calls).toEqual(['begin', 'cancel ref-1']);
    const final = { node: { phase: 'Failed', message: 'build cancelled: the workflow was stopped' } };
    expect(t.state()).toMatchObject({ cancelRequestedAt: T0 + 5000, run: run('cancelled'), final });
    expect([...t.tracked.keys()]).toEqual([]);
    expect(await t.cancel()).toBe(false);
    expect(await t.call()).toEqual(final);
    expect(t.driver.calls).toEqual(['begin', 'cancel ref-1']);
    expect(t.logs().find((l) => l.msg === 'build cancelled: the workflow was stopped')).toMatchObject({
      runId: 'r1',
    });
  });

  it('sends nothing for a run never begun here, or one that has ended', async () => {
    const never = setup();
    expect(await never.cancel()).toBe(false);
    const ended = setup();
    ended.driver.begun = { ...seen('succeeded'), adopted: false };
    await ended.call();
    expect(ended.state()?.final?.node?.phase).toBe('Succeeded');
    expect(await ended.cancel()).toBe(false);
    expect([...never.driver.calls, ...ended.driver.calls]).toEqual(['begin']);
  });

  it('a refused cancel throws and keeps the run as it was, so a later call still follows it', async () => {
    const t = setup();
    await t.call();
    t.driver.cancels.push(UpstreamError.permanent('403 forbidden', { status: 403 }));
    await expect(t.cancel()).rejects.toThrow('403 forbidden');
    expect(t.state()).toEqual({ startedAt: T0, ref: 'ref-1', run: run('queued') });
  });
});
