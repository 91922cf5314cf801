import { mapVertexPipelineState } from './vertex-pipelines-states.js';

describe('mapVertexPipelineState', () => {
  it.each([
    ['PIPELINE_STATE_QUEUED', 'queued'],
    ['PIPELINE_STATE_PENDING', 'queued'],
    ['PIPELINE_STATE_RUNNING', 'running'],
    ['PIPELINE_STATE_CANCELLING', 'running'],
    ['PIPELINE_STATE_PAUSED', 'running'],
    ['PIPELINE_STATE_SUCCEEDED', 'succeeded'],
    ['PIPELINE_STATE_FAILED', 'failed'],
    ['PIPELINE_STATE_CANCELLED', 'cancelled'],
  ])('%s → %s', (upstream, state) => {
    expect(mapVertexPipelineState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('keeps polling on values it does not know, and says so', () => {
    expect(mapVertexPipelineState('PIPELINE_STATE_UNSPECIFIED')).toEqual({
      state: 'running',
      upstreamState: 'PIPELINE_STATE_UNSPECIFIED',
      unknown: true,
    });
    expect(mapVertexPipelineState(undefined)).toMatchObject({ state: 'running', unknown: true });
  });
});
