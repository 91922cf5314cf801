import { mapAirflowState } from './airflow-states.js';

describe('mapAirflowState', () => {
  it.each([
    ['queued', 'queued'],
    ['running', 'running'],
    ['success', 'succeeded'],
    ['failed', 'failed'],
  ])('%s → %s', (upstream, state) => {
    expect(mapAirflowState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('keeps polling on values it does not know, and says so', () => {
    expect(mapAirflowState('restarting')).toEqual({
      state: 'running',
      upstreamState: 'restarting',
      unknown: true,
    });
    expect(mapAirflowState(null)).toEqual({ state: 'running', upstreamState: 'unknown', unknown: true });
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a state named like an Object.prototype property (%s) is unknown',
    (state) => {
      expect(mapAirflowState(state)).toEqual({ state: 'running', upstreamState: state, unknown: true });
    },
  );
});
