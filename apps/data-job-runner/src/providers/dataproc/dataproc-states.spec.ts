import { mapDataprocState } from './dataproc-states.js';

describe('mapDataprocState', () => {
  it.each([
    ['PENDING', 'queued'],
    ['RUNNING', 'running'],
    ['CANCELLING', 'running'],
    ['SUCCEEDED', 'succeeded'],
    ['FAILED', 'failed'],
    ['CANCELLED', 'cancelled'],
  ])('%s → %s', (upstream, state) => {
    expect(mapDataprocState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('keeps polling on values it does not know, and says so', () => {
    expect(mapDataprocState('STATE_UNSPECIFIED')).toEqual({
      state: 'running',
      upstreamState: 'STATE_UNSPECIFIED',
      unknown: true,
    });
    expect(mapDataprocState(undefined)).toMatchObject({ state: 'running', unknown: true });
  });
});
