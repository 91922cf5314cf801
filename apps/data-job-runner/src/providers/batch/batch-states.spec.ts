import { mapBatchState } from './batch-states.js';

describe('mapBatchState', () => {
  it.each([
    ['SUBMITTED', 'queued'],
    ['PENDING', 'queued'],
    ['RUNNABLE', 'queued'],
    ['STARTING', 'running'],
    ['RUNNING', 'running'],
    ['SUCCEEDED', 'succeeded'],
    ['FAILED', 'failed'],
  ])('%s → %s', (upstream, state) => {
    expect(mapBatchState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('names the status reason, the container reason and a non-zero exit code', () => {
    expect(
      mapBatchState('FAILED', {
        statusReason: 'Essential container in task exited',
        containerReason: 'OutOfMemoryError: Container killed due to memory usage',
        exitCode: 137,
      }),
    ).toEqual({
      state: 'failed',
      upstreamState: 'FAILED',
      message:
        'Essential container in task exited; OutOfMemoryError: Container killed due to memory usage; exit code 137',
    });
  });

  it('reads a job the plugin terminated as cancelled', () => {
    expect(mapBatchState('FAILED', { statusReason: 'Argo: stopped', terminatedByUs: true })).toMatchObject({
      state: 'cancelled',
    });
  });

  it.each(['CANCELLED', '', undefined, 'valueOf'])('keeps polling on %p, and says so', (status) => {
    expect(mapBatchState(status)).toMatchObject({ state: 'running', unknown: true });
  });
});
