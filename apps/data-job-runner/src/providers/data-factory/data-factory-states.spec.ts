import { mapDataFactoryRun } from './data-factory-states.js';

describe('mapDataFactoryRun', () => {
  it.each([
    ['Queued', 'queued'],
    ['InProgress', 'running'],
    ['Canceling', 'running'],
    ['Succeeded', 'succeeded'],
    ['Failed', 'failed'],
    ['Cancelled', 'cancelled'],
  ])('%s → %s', (status, state) => {
    expect(mapDataFactoryRun({ status })).toEqual({ state, upstreamState: status });
  });

  it('gives a failed run’s message', () => {
    expect(
      mapDataFactoryRun({ status: 'Failed', message: 'Operation on target Copy orders failed: 2200' }),
    ).toEqual({
      state: 'failed',
      upstreamState: 'Failed',
      message: 'Operation on target Copy orders failed: 2200',
    });
  });

  it('keeps polling a status it does not know, and says so', () => {
    expect(mapDataFactoryRun({ status: 'Paused' })).toEqual({
      state: 'running',
      upstreamState: 'Paused',
      unknown: true,
    });
    expect(mapDataFactoryRun({})).toMatchObject({ upstreamState: 'Unknown', unknown: true });
  });
});
