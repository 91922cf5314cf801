import { mapSnowflakeReply } from './snowflake-states.js';

describe('mapSnowflakeReply', () => {
  it.each([
    [202, { code: '333334' }, 'running', 'in progress (333334)'],
    [200, { code: '090001', sqlState: '00000' }, 'succeeded', 'success (090001)'],
    [422, { code: '002003', sqlState: '42S02' }, 'failed', 'failed (002003/42S02)'],
    [422, { code: '000604', sqlState: '57014' }, 'cancelled', 'cancelled (000604/57014)'],
    [422, { code: '000630', sqlState: '57014' }, 'failed', 'failed (000630/57014)'],
    [408, { code: '000630', sqlState: '57014' }, 'failed', 'timed out (000630/57014)'],
  ])('%i %j → %s', (status, body, state, upstreamState) => {
    expect(mapSnowflakeReply(status, body)).toMatchObject({ state, upstreamState });
  });

  it("keeps Snowflake's message as the explanation of a failure", () => {
    expect(mapSnowflakeReply(422, { code: '100132', sqlState: 'P0000', message: 'boom' }).message).toBe(
      'boom',
    );
  });

  it('keeps polling on a status it does not know, and says so', () => {
    expect(mapSnowflakeReply(207, {})).toEqual({
      state: 'running',
      upstreamState: 'HTTP 207 unknown (no code)',
      unknown: true,
    });
  });
});
