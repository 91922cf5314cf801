import { mapDatabricksState } from './databricks-states.js';

describe('mapDatabricksState', () => {
  it.each([
    ['QUEUED', undefined, 'queued', 'QUEUED'],
    ['PENDING', undefined, 'queued', 'PENDING'],
    ['BLOCKED', undefined, 'queued', 'BLOCKED'],
    ['RUNNING', undefined, 'running', 'RUNNING'],
    ['TERMINATING', undefined, 'running', 'TERMINATING'],
    ['WAITING_FOR_RETRY', undefined, 'running', 'WAITING_FOR_RETRY'],
    ['TERMINATED', 'SUCCESS', 'succeeded', 'TERMINATED/SUCCESS'],
    ['TERMINATED', 'SUCCESS_WITH_FAILURES', 'succeeded', 'TERMINATED/SUCCESS_WITH_FAILURES'],
    ['TERMINATED', 'FAILED', 'failed', 'TERMINATED/FAILED'],
    ['TERMINATED', 'TIMEDOUT', 'failed', 'TERMINATED/TIMEDOUT'],
    ['TERMINATED', 'CANCELED', 'cancelled', 'TERMINATED/CANCELED'],
    ['TERMINATED', 'MAXIMUM_CONCURRENT_RUNS_REACHED', 'failed', 'TERMINATED/MAXIMUM_CONCURRENT_RUNS_REACHED'],
    ['TERMINATED', 'UPSTREAM_FAILED', 'failed', 'TERMINATED/UPSTREAM_FAILED'],
    ['TERMINATED', 'UPSTREAM_CANCELED', 'failed', 'TERMINATED/UPSTREAM_CANCELED'],
    ['TERMINATED', 'EXCLUDED', 'failed', 'TERMINATED/EXCLUDED'],
    ['TERMINATED', 'DISABLED', 'failed', 'TERMINATED/DISABLED'],
    ['SKIPPED', undefined, 'failed', 'SKIPPED'],
    ['INTERNAL_ERROR', 'FAILED', 'failed', 'INTERNAL_ERROR/FAILED'],
  ])('%s/%s → %s', (life_cycle_state, result_state, state, upstreamState) => {
    expect(mapDatabricksState({ life_cycle_state, result_state, state_message: 'm' }, undefined)).toEqual({
      state,
      upstreamState,
      message: 'm',
    });
  });

  it('fails SUCCESS_WITH_FAILURES when the body asks for it', () => {
    expect(
      mapDatabricksState(
        { life_cycle_state: 'TERMINATED', result_state: 'SUCCESS_WITH_FAILURES' },
        undefined,
        'failed',
      ).state,
    ).toBe('failed');
  });

  it('keeps polling on values it does not know, and says so', () => {
    expect(mapDatabricksState({ life_cycle_state: 'HIBERNATING' }, undefined)).toEqual({
      state: 'running',
      upstreamState: 'HIBERNATING',
      unknown: true,
    });
    expect(
      mapDatabricksState({ life_cycle_state: 'TERMINATED', result_state: 'NEW_THING' }, undefined).unknown,
    ).toBe(true);
  });

  it('shows the queue reason while queued', () => {
    expect(
      mapDatabricksState(
        {
          life_cycle_state: 'QUEUED',
          state_message: '',
          queue_reason: 'Queued due to reaching maximum concurrent runs',
        },
        undefined,
      ).message,
    ).toBe('Queued due to reaching maximum concurrent runs');
  });

  it('falls back to status (API 2.2) when state is absent', () => {
    expect(mapDatabricksState(undefined, { state: 'QUEUED' })).toEqual({
      state: 'queued',
      upstreamState: 'QUEUED',
      message: undefined,
    });
    expect(mapDatabricksState(undefined, { state: 'WAITING' }).state).toBe('running');
    expect(
      mapDatabricksState(undefined, {
        state: 'TERMINATED',
        termination_details: { code: 'SUCCESS', type: 'SUCCESS' },
      }).state,
    ).toBe('succeeded');
    expect(
      mapDatabricksState(undefined, { state: 'TERMINATED', termination_details: { code: 'USER_CANCELED' } })
        .state,
    ).toBe('cancelled');
    expect(
      mapDatabricksState(undefined, {
        state: 'TERMINATED',
        termination_details: { code: 'RUN_EXECUTION_ERROR', message: 'boom' },
      }),
    ).toEqual({
      state: 'failed',
      upstreamState: 'TERMINATED/RUN_EXECUTION_ERROR',
      message: 'boom',
    });
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'states named like an Object.prototype property (%s) are unknown, in every field',
    (name) => {
      expect(mapDatabricksState({ life_cycle_state: name }, undefined)).toMatchObject({
        state: 'running',
        unknown: true,
      });
      expect(
        mapDatabricksState({ life_cycle_state: 'TERMINATED', result_state: name }, undefined),
      ).toMatchObject({ state: 'running', unknown: true });
      expect(mapDatabricksState(undefined, { state: name })).toMatchObject({
        state: 'running',
        unknown: true,
      });
      expect(
        mapDatabricksState(undefined, { state: 'TERMINATED', termination_details: { code: name } }),
      ).toMatchObject({ state: 'failed', upstreamState: `TERMINATED/${name}` });
    },
  );
});
