import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import { SlackConfig } from './slack-block.dto.js';

const problems = (body: unknown): string[] => {
  const result = validatePluginConfig(SlackConfig, body);
  return result.ok ? [] : result.problems;
};
const config = (body: unknown): SlackConfig => {
  const result = validatePluginConfig(SlackConfig, body);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
};

describe('SlackConfig', () => {
  it('accepts the smallest body: a channel and text', () => {
    expect(config({ channel: '#builds', text: 'hi' })).toMatchObject({ channel: '#builds', text: 'hi' });
    expect(config({ channel: 'C0123456789', text: 'hi' }).channel).toBe('C0123456789');
  });

  it('requires text unless blocks or a file is given', () => {
    expect(problems({ channel: '#builds' })).toEqual(['text: is required unless blocks or file is given']);
    expect(problems({ channel: '#builds', text: '' })).toEqual([
      'text: is required unless blocks or file is given',
    ]);
    expect(problems({ channel: '#builds', blocks: [{ type: 'divider' }] })).toEqual([]);
    expect(problems({ channel: '#builds', file: { content: 'x', filename: 'a.txt' } })).toEqual([]);
  });

  it('names the field of a typo, with a suggestion', () => {
    expect(problems({ channel: '#builds', txt: 'hi' })).toContain(
      'txt: unknown field (did you mean "text"?)',
    );
    expect(problems({ chanel: '#builds', text: 'hi' })).toContain(
      'chanel: unknown field (did you mean "channel"?)',
    );
    expect(
      problems({ channel: '#builds', text: 'hi', file: { content: 'x', filename: 'a.txt', tilte: 'x' } }),
    ).toEqual(['file.tilte: unknown field (did you mean "title"?)']);
  });

  it('checks the channel reference', () => {
    expect(problems({ channel: 'Not A Channel!', text: 'x' })).toEqual([
      'channel: must be a channel name like #builds or a channel ID like C0123456789',
    ]);
    expect(problems({ channel: 42, text: 'x' })).toContain('channel: must be a string');
  });

  it('checks ts values precisely', () => {
    expect(problems({ channel: '#b', text: 'x', threadTs: '1712345678' })).toEqual([
      'threadTs: must be a Slack message ts such as 1712345678.123456 (the ts output of an earlier step)',
    ]);
    expect(problems({ channel: '#b', text: 'x', updateTs: '1712345678.123456' })).toEqual([]);
    expect(problems({ channel: '#b', text: 'x', updateTs: 1712345678.123456 })[0]).toMatch(
      /^updateTs: must be a Slack message ts/,
    );
  });

  it('treats empty strings from unset parameters as absent', () => {
    const c = config({
      channel: '#b',
      text: 'x',
      threadTs: '',
      updateTs: '',
      status: '',
      mentions: '',
      workspace: '',
      replyBroadcast: '',
    });
    expect(c).toEqual(
      expect.objectContaining({
        threadTs: undefined,
        updateTs: undefined,
        status: undefined,
        mentions: undefined,
        workspace: undefined,
      }),
    );
  });

  it('maps Argo phases to statuses and rejects unknown ones', () => {
    expect(config({ channel: '#b', text: 'x', status: 'Failed' }).status).toBe('failed');
    expect(config({ channel: '#b', text: 'x', status: 'Error' }).status).toBe('failed');
    expect(config({ channel: '#b', text: 'x', status: 'Succeeded' }).status).toBe('succeeded');
    expect(problems({ channel: '#b', text: 'x', status: 'great' })).toEqual([
      'status: must be one of succeeded, failed, running, warning, info (Argo phases such as Failed or Error work too)',
    ]);
  });

  it('accepts mentions as a list or a string, in pasted forms, and names a bad entry', () => {
    expect(config({ channel: '#b', text: 'x', mentions: 'U0123ABCD, S0456EFGH @here' }).mentions).toEqual([
      'U0123ABCD',
      'S0456EFGH',
      'here',
    ]);
    expect(
      config({
        channel: '#b',
        text: 'x',
        mentions: ['<@U0123ABCD>', '<!subteam^S0456EFGH|@oncall>', '<!channel>'],
      }).mentions,
    ).toEqual(['U0123ABCD', 'S0456EFGH', 'channel']);
    expect(problems({ channel: '#b', text: 'x', mentions: ['U0123ABCD', 'alice'] })).toEqual([
      'mentions: entry 1 ("alice") is not a user ID (U…), a user group ID (S…), here or channel; names like @alice do not notify anyone',
    ]);
  });

  it('accepts blocks as a list, one block, the Block Kit Builder export, or JSON text', () => {
    const section = { type: 'section', text: { type: 'mrkdwn', text: '*hi*' } };
    expect(config({ channel: '#b', blocks: [section] }).blocks).toEqual([section]);
    expect(config({ channel: '#b', blocks: section }).blocks).toEqual([section]);
    expect(config({ channel: '#b', blocks: { blocks: [section] } }).blocks).toEqual([section]);
    expect(config({ channel: '#b', blocks: JSON.stringify([section]) }).blocks).toEqual([section]);
    expect(problems({ channel: '#b', blocks: '[{"type": "section",' })[0]).toMatch(
      /^blocks: is not valid JSON \(/,
    );
    expect(problems({ channel: '#b', blocks: `[${'{},'.repeat(20_000)}{}]` })).toEqual([
      "blocks: is a JSON string that holds more than 20000 values (the most a field's JSON may build)",
    ]);
    expect(problems({ channel: '#b', blocks: [section, 'divider'] })).toEqual([
      'blocks: entry 1 is not a Block Kit block (an object with a "type", e.g. {"type":"section",...})',
    ]);
    expect(
      problems({ channel: '#b', blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) }),
    ).toEqual(['blocks: has 51 blocks; Slack allows at most 50 in one message']);
  });

  it('accepts booleans as JSON or as substituted text', () => {
    expect(
      config({ channel: '#b', text: 'x', threadTs: '1712345678.000100', replyBroadcast: 'true' })
        .replyBroadcast,
    ).toBe(true);
    expect(config({ channel: '#b', text: 'x', unfurlLinks: 'False' }).unfurlLinks).toBe(false);
    expect(problems({ channel: '#b', text: 'x', unfurlLinks: 'sometimes' })).toEqual([
      'unfurlLinks: must be a boolean value',
    ]);
  });

  it('rejects replyBroadcast without a thread, or with an update', () => {
    expect(problems({ channel: '#b', text: 'x', replyBroadcast: true })).toEqual([
      'replyBroadcast: needs threadTs (a broadcast is a thread reply that is also shown in the channel)',
    ]);
    expect(
      problems({
        channel: '#b',
        text: 'x',
        threadTs: '1712345678.000100',
        updateTs: '1712345678.000200',
        replyBroadcast: true,
      }),
    ).toEqual(['replyBroadcast: cannot be used with updateTs (an edit is never broadcast)']);
  });

  it('checks the file', () => {
    expect(problems({ channel: '#b', file: { content: '', filename: 'a.txt' } })).toEqual([
      'file.content: must not be empty (Slack refuses empty files)',
    ]);
    expect(problems({ channel: '#b', file: { content: 'x', filename: '../etc/passwd' } })).toEqual([
      'file.filename: must be a file name without a path (report.txt)',
    ]);
    expect(problems({ channel: '#b', file: 'report' })[0]).toMatch(/^file: /);
  });

  it('checks the workspace name shape', () => {
    expect(problems({ channel: '#b', text: 'x', workspace: 'ops-eu' })).toEqual([
      'workspace: must be a workspace name such as ops (letters, digits, _)',
    ]);
  });
});
