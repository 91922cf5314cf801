import { mapDbtCloudStatus } from './dbt-cloud-states.js';

describe('mapDbtCloudStatus', () => {
  it.each([
    [1, 'queued', 'Queued (1)'],
    [2, 'queued', 'Starting (2)'],
    [3, 'running', 'Running (3)'],
    [10, 'succeeded', 'Success (10)'],
    [20, 'failed', 'Error (20)'],
    [30, 'cancelled', 'Cancelled (30)'],
  ])('%i → %s', (code, state, upstreamState) => {
    expect(mapDbtCloudStatus(code)).toEqual({ state, upstreamState });
  });

  it("uses dbt's own humanized word when given", () => {
    expect(mapDbtCloudStatus(20, 'Error')).toEqual({ state: 'failed', upstreamState: 'Error (20)' });
  });

  it('keeps polling on values it does not know, and says so', () => {
    expect(mapDbtCloudStatus(5)).toEqual({ state: 'running', upstreamState: 'Unknown (5)', unknown: true });
    expect(mapDbtCloudStatus('10')).toMatchObject({ state: 'running', unknown: true });
  });
});
