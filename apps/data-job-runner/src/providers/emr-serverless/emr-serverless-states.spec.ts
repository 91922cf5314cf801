import { mapEmrServerlessState } from './emr-serverless-states.js';

describe('mapEmrServerlessState', () => {
  it.each([
    ['SUBMITTED', 'queued'],
    ['PENDING', 'queued'],
    ['SCHEDULED', 'queued'],
    ['QUEUED', 'queued'],
    ['RUNNING', 'running'],
    ['CANCELLING', 'running'],
    ['SUCCESS', 'succeeded'],
    ['FAILED', 'failed'],
    ['CANCELLED', 'cancelled'],
  ])('%s → %s', (upstream, state) => {
    expect(mapEmrServerlessState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('carries stateDetails as the message', () => {
    expect(mapEmrServerlessState('FAILED', 'Job failed, please check complete logs')).toEqual({
      state: 'failed',
      upstreamState: 'FAILED',
      message: 'Job failed, please check complete logs',
    });
  });

  it.each(['DELETED', '', undefined, 'toString'])('keeps polling on %p, and says so', (state) => {
    expect(mapEmrServerlessState(state)).toMatchObject({ state: 'running', unknown: true });
  });
});
