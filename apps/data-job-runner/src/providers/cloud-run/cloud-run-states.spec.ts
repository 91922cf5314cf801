import { mapCloudRunExecution } from './cloud-run-states.js';

const completed = (state: string, extra: Record<string, unknown> = {}) => ({
  conditions: [
    { type: 'ResourcesAvailable', state: 'CONDITION_SUCCEEDED' },
    { type: 'Completed', state, ...extra },
  ],
});

describe('mapCloudRunExecution', () => {
  it.each([
    [completed('CONDITION_PENDING'), 'queued', 'CONDITION_PENDING'],
    [{ ...completed('CONDITION_RECONCILING'), runningCount: 1 }, 'running', 'CONDITION_RECONCILING'],
    [
      { ...completed('CONDITION_PENDING'), startTime: '2024-01-01T10:00:00Z' },
      'running',
      'CONDITION_PENDING',
    ],
    [
      completed('CONDITION_RECONCILING', { executionReason: 'CANCELLING' }),
      'running',
      'CONDITION_RECONCILING/CANCELLING',
    ],
    [completed('CONDITION_SUCCEEDED'), 'succeeded', 'CONDITION_SUCCEEDED'],
    [
      completed('CONDITION_FAILED', { executionReason: 'NON_ZERO_EXIT_CODE' }),
      'failed',
      'CONDITION_FAILED/NON_ZERO_EXIT_CODE',
    ],
    [
      completed('CONDITION_FAILED', { executionReason: 'CANCELLED' }),
      'cancelled',
      'CONDITION_FAILED/CANCELLED',
    ],
  ])('%j → %s', (execution, state, upstreamState) => {
    expect(mapCloudRunExecution(execution)).toMatchObject({ state, upstreamState });
  });

  it('gives the Completed condition’s message of an ended execution', () => {
    expect(
      mapCloudRunExecution(
        completed('CONDITION_FAILED', {
          executionReason: 'NON_ZERO_EXIT_CODE',
          message: 'Task orders-x7k2p-task0 failed with exit code 1.',
        }),
      ).message,
    ).toBe('Task orders-x7k2p-task0 failed with exit code 1.');
  });

  it('keeps polling without a Completed condition, and says so', () => {
    expect(mapCloudRunExecution({ conditions: [] })).toEqual({
      state: 'running',
      upstreamState: 'CONDITION_UNSPECIFIED',
      unknown: true,
    });
    expect(mapCloudRunExecution(completed('CONDITION_SOMETHING_NEW'))).toMatchObject({ unknown: true });
  });
});
