import { mapLivyState } from './livy-states.js';

describe('mapLivyState', () => {
  it.each([
    ['not_started', 'queued'],
    ['starting', 'queued'],
    ['recovering', 'running'],
    ['idle', 'running'],
    ['running', 'running'],
    ['busy', 'running'],
    ['shutting_down', 'running'],
    ['success', 'succeeded'],
    ['dead', 'failed'],
    ['error', 'failed'],
    ['killed', 'cancelled'],
  ])('%s → %s', (upstream, state) => {
    expect(mapLivyState(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('keeps polling on values it does not know, and says so', () => {
    expect(mapLivyState('zombie')).toEqual({ state: 'running', upstreamState: 'zombie', unknown: true });
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a state named like an Object.prototype property (%s) is unknown',
    (state) => {
      expect(mapLivyState(state)).toEqual({ state: 'running', upstreamState: state, unknown: true });
    },
  );
});
