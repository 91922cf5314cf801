import { mapGlueState } from './glue-states.js';

describe('mapGlueState', () => {
  it.each([
    ['WAITING', 'queued'],
    ['STARTING', 'queued'],
    ['RUNNING', 'running'],
    ['STOPPING', 'running'],
    ['SUCCEEDED', 'succeeded'],
    ['FAILED', 'failed'],
    ['TIMEOUT', 'failed'],
    ['ERROR', 'failed'],
    ['EXPIRED', 'failed'],
    ['STOPPED', 'cancelled'],
  ])('%s → %s', (upstream, state) => {
    expect(mapGlueState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('carries ErrorMessage as the message', () => {
    expect(mapGlueState('FAILED', 'AnalysisException: Path does not exist')).toMatchObject({
      message: 'AnalysisException: Path does not exist',
    });
  });

  it.each(['QUEUED', '', undefined, '__proto__'])('keeps polling on %p, and says so', (state) => {
    expect(mapGlueState(state)).toMatchObject({ state: 'running', unknown: true });
  });
});
