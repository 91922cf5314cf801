import { createMemoryLogger } from '../logging/plugin-logger.js';
import { Redactor } from '../logging/redactor.js';
import { ActiveRuns, provideActiveRuns, type ActiveRunsOptions, type TrackedRun } from './active-runs.js';

function setup(options: ActiveRunsOptions) {
  const { logger, lines } = createMemoryLogger(new Redactor());
  return {
    active: new ActiveRuns(logger, options),
    logs: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A run whose cancel records the signal it got and resolves (or fails) after `ms`. */
function run(id: string, cancelled: string[], { ms = 0, error }: { ms?: number; error?: string } = {}) {
  const signals: AbortSignal[] = [];
  const tracked: TrackedRun = {
    fields: { runId: id },
    cancel: async (signal) => {
      signals.push(signal);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => resolve(clearTimeout(timer)));
      });
      if (error ?? signal.aborted) throw new Error(error ?? 'aborted');
      cancelled.push(id);
    },
  };
  return { tracked, signals };
}

describe('ActiveRuns', () => {
  it('tracks, forgets and keeps at most 10000 runs, dropping the least recently polled', async () => {
    const { active } = setup({ cancelOnShutdown: true });
    const cancelled: string[] = [];
    active.track('first', run('first', cancelled).tracked);
    active.track('second', run('second', cancelled).tracked);
    active.track('first', run('first', cancelled).tracked); // polled again
    for (let i = 0; i < 9_999; i++) active.track(String(i), { fields: {}, cancel: async () => undefined });
    expect(active.size).toBe(10_000);
    active.forget('0');
    expect(active.size).toBe(9_999);
    await active.beforeApplicationShutdown();
    expect(cancelled).toEqual(['first']);
  });

  it('leaves the runs alone by default, saying so', async () => {
    const { active, logs } = setup({ cancelOnShutdown: false, noun: 'build' });
    const cancelled: string[] = [];
    active.track('a', run('a', cancelled).tracked);
    await active.beforeApplicationShutdown('SIGTERM');
    expect(cancelled).toEqual([]);
    expect(logs().map((l) => l.msg)).toEqual(['leaving the builds running (CANCEL_ON_SHUTDOWN is off)']);
  });

  it('cancels every tracked run on shutdown, logging each; a failure is logged, not thrown', async () => {
    const { active, logs } = setup({ cancelOnShutdown: true });
    const cancelled: string[] = [];
    const a = run('a', cancelled);
    active.track('a', a.tracked);
    active.track('b', run('b', cancelled, { error: '403 Forbidden' }).tracked);
    active.track('c', run('c', cancelled).tracked);
    active.forget('c');
    await active.beforeApplicationShutdown('SIGTERM');
    expect(cancelled).toEqual(['a']);
    expect(a.signals[0]).toBeInstanceOf(AbortSignal);
    expect(logs().map(({ msg, runId }) => ({ msg, runId }))).toEqual([
      { msg: 'CANCEL_ON_SHUTDOWN: cancelling the runs this sidecar was waiting for', runId: undefined },
      { msg: 'cancelled on shutdown', runId: 'a' },
      { msg: 'could not cancel on shutdown: 403 Forbidden', runId: 'b' },
    ]);
    expect(active.size).toBe(0);
  });

  it('names the run with the noun it is given', async () => {
    const { active, logs } = setup({ cancelOnShutdown: true, noun: 'build' });
    active.track('a', run('a', []).tracked);
    active.track('b', run('b', [], { error: 'gone' }).tracked);
    await active.beforeApplicationShutdown();
    expect(logs().map((l) => l.msg)).toContain('cancelled the build on shutdown');
    expect(logs().map((l) => l.msg)).toContain('could not cancel the build on shutdown: gone');
  });

  it('keeps at most 8 cancels in flight', async () => {
    const { active } = setup({ cancelOnShutdown: true });
    let inFlight = 0;
    let most = 0;
    for (let i = 0; i < 20; i++)
      active.track(String(i), {
        fields: {},
        cancel: async () => {
          most = Math.max(most, ++inFlight);
          await sleep(5);
          inFlight--;
        },
      });
    await active.beforeApplicationShutdown();
    expect(most).toBe(8);
  });

  it('gives up after the budget, aborting the signal the cancels got', async () => {
    const { active, logs } = setup({ cancelOnShutdown: true, budgetMs: 50 });
    const cancelled: string[] = [];
    const hung = run('hung', cancelled, { ms: 10_000 });
    active.track('hung', hung.tracked);
    const started = Date.now();
    await active.beforeApplicationShutdown();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(hung.signals[0].aborted).toBe(true);
    expect(cancelled).toEqual([]);
    expect(logs().filter((l) => l.msg === 'cancelled on shutdown')).toEqual([]);
  });

  it('is provided for Nest from the plugin env', () => {
    class Env {
      CANCEL_ON_SHUTDOWN = true;
    }
    const provider = provideActiveRuns(Env, (env) => ({ cancelOnShutdown: env.CANCEL_ON_SHUTDOWN }));
    expect(provider.provide).toBe(ActiveRuns);
    const { logger } = createMemoryLogger(new Redactor());
    expect(provider.useFactory(new Env(), logger)).toBeInstanceOf(ActiveRuns);
  });
});
