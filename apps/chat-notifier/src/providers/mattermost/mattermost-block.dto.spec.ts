import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import { MattermostConfig } from './mattermost-block.dto.js';

const check = (body: unknown) => validatePluginConfig(MattermostConfig, body);
const problems = (body: unknown): string[] => {
  const result = check(body);
  return result.ok ? [] : result.problems;
};
const ID = 'abcdefghijklmnopqrstuvwxyz';

describe('MattermostConfig (and the content every provider shares)', () => {
  it('a channel ID alone, or a channel name with its team', () => {
    expect(problems({ channel: ID, text: 'hi' })).toEqual([]);
    expect(problems({ channel: 'town-square', team: 'eng', text: 'hi' })).toEqual([]);
    expect(problems({ channel: 'Town Square', team: 'eng', text: 'hi' })).toEqual([
      'channel: must be a channel ID (26 characters) or a channel name from its URL such as town-square',
    ]);
  });

  it('text is needed unless a title, fields or a file carry the message', () => {
    expect(problems({ channel: ID })).toEqual(['text: is required unless title, fields or file is given']);
    expect(problems({ channel: ID, title: 'Release' })).toEqual([]);
    expect(problems({ channel: ID, text: 'x'.repeat(16_001) })).toEqual([
      'text: must be at most 16000 characters',
    ]);
    expect(problems({ channel: ID, file: { content: 'x', filename: 'x.log' } })).toEqual([]);
  });

  it('fields: a list keeps its order; a map or a JSON string of either works; numbers become text', () => {
    const list = check({
      channel: ID,
      fields: [
        { name: 'B', value: 2 },
        { name: 'A', value: 'x' },
      ],
    });
    expect(list.ok && list.config.fields).toEqual([
      { name: 'B', value: '2' },
      { name: 'A', value: 'x' },
    ]);
    const map = check({ channel: ID, fields: '{"Env":"prod","Ok":true}' });
    expect(map.ok && map.config.fields).toEqual([
      { name: 'Env', value: 'prod' },
      { name: 'Ok', value: 'true' },
    ]);
    expect(problems({ channel: ID, fields: [{ name: 'x', value: 'y', colour: 'red' }] })).toEqual([
      'fields: entry 0 must be {name, value}',
    ]);
    expect(problems({ channel: ID, fields: 'not json' })).toEqual([
      'fields: must be a list of {name, value}, a map of name to text, or a JSON string of either',
    ]);
    expect(problems({ channel: ID, fields: `[${'{},'.repeat(20_000)}{}]` })).toEqual([
      "fields: is a JSON string that holds more than 20000 values (the most a field's JSON may build)",
    ]);
  });

  it('status takes Argo phases; post IDs are checked; mentions lose their @', () => {
    const ok = check({ channel: ID, text: 'x', status: 'Error', thread: ID, mentions: '@Alice, here' });
    expect(ok.ok && [ok.config.status, ok.config.mentions]).toEqual(['failed', ['alice', 'here']]);
    expect(problems({ channel: ID, text: 'x', update: '1712345678.123456' })).toEqual([
      'update: must be a Mattermost post ID (26 characters: the id output of an earlier step)',
    ]);
    expect(problems({ channel: ID, text: 'x', mentions: ['<@U123>'] })).toEqual([
      'mentions: must be up to 50 usernames (alice or @alice) or here, channel, all',
    ]);
  });
});
