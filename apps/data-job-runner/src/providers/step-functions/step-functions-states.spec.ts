import { mapStepFunctionsState } from './step-functions-states.js';

describe('mapStepFunctionsState', () => {
  it.each([
    ['RUNNING', 'running'],
    ['PENDING_REDRIVE', 'running'],
    ['SUCCEEDED', 'succeeded'],
    ['FAILED', 'failed'],
    ['TIMED_OUT', 'failed'],
    ['ABORTED', 'cancelled'],
  ])('%s → %s', (upstream, state) => {
    expect(mapStepFunctionsState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('names the error and its cause', () => {
    expect(mapStepFunctionsState('FAILED', 'States.TaskFailed', 'Lambda returned 500')).toEqual({
      state: 'failed',
      upstreamState: 'FAILED',
      message: 'States.TaskFailed: Lambda returned 500',
    });
  });

  it.each(['PAUSED', '', undefined, 'constructor'])('keeps polling on %p, and says so', (status) => {
    expect(mapStepFunctionsState(status)).toMatchObject({ state: 'running', unknown: true });
  });
});
