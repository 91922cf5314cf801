import { executionSignal } from './execution-signal.js';

describe('executionSignal', () => {
  it('aborts with the shutdown reason when the plugin shuts down', () => {
    const shutdown = new AbortController();
    const { signal, release } = executionSignal(shutdown.signal, 60_000);
    expect(signal.aborted).toBe(false);
    const reason = new Error('SIGTERM');
    shutdown.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    release();
  });

  it('is aborted from the start when shutdown already began', () => {
    const shutdown = new AbortController();
    shutdown.abort(new Error('stopping'));
    const { signal } = executionSignal(shutdown.signal, 60_000);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('stopping');
  });

  it('aborts with a TimeoutError after the limit', async () => {
    const { signal } = executionSignal(new AbortController().signal, 20);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('once released, neither shutdown nor the limit aborts it (no timer or listener left behind)', async () => {
    const shutdown = new AbortController();
    const { signal, release } = executionSignal(shutdown.signal, 20);
    release();
    await new Promise((resolve) => setTimeout(resolve, 40));
    shutdown.abort(new Error('late'));
    expect(signal.aborted).toBe(false);
  });
});
