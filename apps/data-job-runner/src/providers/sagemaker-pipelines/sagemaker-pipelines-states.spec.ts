import { mapSagemakerPipelinesState } from './sagemaker-pipelines-states.js';

describe('mapSagemakerPipelinesState', () => {
  it.each([
    ['Executing', 'running'],
    ['Stopping', 'running'],
    ['Succeeded', 'succeeded'],
    ['Failed', 'failed'],
    ['Stopped', 'cancelled'],
  ])('%s → %s', (upstream, state) => {
    expect(mapSagemakerPipelinesState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('carries FailureReason as the message', () => {
    expect(mapSagemakerPipelinesState('Failed', 'Step Train failed: AlgorithmError')).toMatchObject({
      message: 'Step Train failed: AlgorithmError',
    });
  });

  it.each(['Pending', '', undefined, 'constructor'])('keeps polling on %p, and says so', (status) => {
    expect(mapSagemakerPipelinesState(status)).toMatchObject({ state: 'running', unknown: true });
  });
});
