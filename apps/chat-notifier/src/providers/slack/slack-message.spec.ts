import { PluginConfigError } from '@app/plugin-kit';
import { renderMention, renderMentions } from './slack-mentions.js';
import { renderMessage, sectionBlocks } from './slack-message.js';
import { STATUS_STYLES, normalizeStatus } from '../../shared/status-style.js';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('mentions', () => {
  it('renders users, enterprise users, user groups and broadcasts in Slack syntax', () => {
    expect(renderMention('U0123ABCD')).toBe('<@U0123ABCD>');
    expect(renderMention('W0123ABCD')).toBe('<@W0123ABCD>');
    expect(renderMention('S0456EFGH')).toBe('<!subteam^S0456EFGH>');
    expect(renderMention('here')).toBe('<!here>');
    expect(renderMention('channel')).toBe('<!channel>');
    expect(renderMentions(['U0123ABCD', 'here', 'U0123ABCD'])).toBe('<@U0123ABCD> <!here>');
    expect(renderMentions(undefined)).toBe('');
  });
});

describe('status styles', () => {
  it('uses hex colours only (named colours render grey) and one emoji per status', () => {
    for (const style of Object.values(STATUS_STYLES)) expect(style.color).toMatch(/^#[0-9A-F]{6}$/);
    expect(new Set(Object.values(STATUS_STYLES).map((s) => s.emoji)).size).toBe(5);
    expect(STATUS_STYLES.failed).toMatchObject({ color: '#E01E5A', emoji: ':x:' });
    expect(STATUS_STYLES.succeeded).toMatchObject({ color: '#2EB67D', emoji: ':white_check_mark:' });
  });

  it('maps Argo phases', () => {
    expect(
      ['Succeeded', 'Failed', 'Error', 'Running', 'Pending', 'Skipped', 'Omitted', 'warning'].map(
        normalizeStatus,
      ),
    ).toEqual(['succeeded', 'failed', 'failed', 'running', 'running', 'info', 'info', 'warning']);
    expect(normalizeStatus('bogus')).toBe('bogus');
    for (const name of ['constructor', 'toString', '__proto__']) expect(normalizeStatus(name)).toBe(name);
  });
});

describe('renderMessage', () => {
  it('plain text: the text is the message, mentions first', () => {
    expect(renderMessage({ text: 'Build passed' })).toEqual({ text: 'Build passed' });
    expect(renderMessage({ text: 'Build failed', mentions: ['U0123ABCD', 'S0456EFGH'] })).toEqual({
      text: '<@U0123ABCD> <!subteam^S0456EFGH> Build failed',
    });
  });

  it('blocks without status: blocks as given, text is the fallback, mentions get their own line', () => {
    const blocks = [section('*Deploy* done')];
    expect(renderMessage({ blocks })).toEqual({ text: '*Deploy* done', blocks });
    expect(renderMessage({ text: 'Deploy done', blocks, mentions: ['here'] })).toEqual({
      text: '<!here> Deploy done',
      blocks: [section('<!here>'), ...blocks],
    });
  });

  it('a status puts the content in an attachment with the status colour, under a header line with the emoji and mentions', () => {
    expect(renderMessage({ text: 'Build 42 failed', status: 'failed', mentions: ['S0456EFGH'] })).toEqual({
      text: ':x: <!subteam^S0456EFGH> Build 42 failed',
      blocks: [
        { type: 'context', elements: [{ type: 'mrkdwn', text: ':x: *Failed* <!subteam^S0456EFGH>' }] },
      ],
      attachments: [
        {
          color: '#E01E5A',
          fallback: ':x: <!subteam^S0456EFGH> Build 42 failed',
          blocks: [section('Build 42 failed')],
        },
      ],
    });
  });

  it('a status with blocks keeps the blocks whole inside the coloured attachment', () => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Release 1.2' } },
      { type: 'divider' },
    ];
    const out = renderMessage({ blocks, status: 'succeeded' });
    expect(out.attachments).toEqual([
      { color: '#2EB67D', fallback: ':white_check_mark: Release 1.2', blocks },
    ]);
    expect(out.text).toBe(':white_check_mark: Release 1.2');
  });

  it('a file without text is announced by its title, else its name', () => {
    expect(
      renderMessage({ file: { content: 'x', filename: 'report.csv', title: 'Nightly report' } }),
    ).toEqual({ text: 'Nightly report' });
    expect(renderMessage({ file: { content: 'x', filename: 'report.csv' } })).toEqual({ text: 'report.csv' });
    // A name is data: a `<!here>` in it mentions nobody.
    expect(renderMessage({ file: { content: 'x', filename: 'a.txt', title: '<!here> Q&A' } })).toEqual({
      text: '&lt;!here&gt; Q&amp;A',
    });
  });

  it('splits long text over sections of at most 3,000 characters, at line breaks when it can', () => {
    const line = 'x'.repeat(99);
    const text = Array.from({ length: 70 }, () => line).join('\n'); // 6,999 characters
    const blocks = sectionBlocks(text);
    expect(blocks.length).toBe(3);
    for (const b of blocks) expect((b.text as { text: string }).text.length).toBeLessThanOrEqual(3000);
    expect(blocks.map((b) => (b.text as { text: string }).text).join('\n')).toBe(text);
    expect(sectionBlocks('y'.repeat(6500)).map((b) => (b.text as { text: string }).text.length)).toEqual([
      3000, 3000, 500,
    ]);
  });

  // A lone surrogate is what the cut would leave of 😀 (two UTF-16 units): JSON carries it as \ud83d, Slack shows U+FFFD.
  const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8') === text;

  it('never cuts a character outside the BMP in half: not in the fallback, not between sections', () => {
    for (const offset of [0, 1]) {
      const text = `${'.'.repeat(offset)}${'😀'.repeat(2000)}`;
      const { fallback } = renderMessage({ text, status: 'failed' }).attachments![0]!;
      expect([offset, fallback.length <= 300, wellFormed(fallback)]).toEqual([offset, true, true]);
      const sections = sectionBlocks(text).map((b) => (b.text as { text: string }).text);
      expect([offset, sections.every(wellFormed), sections.join('')]).toEqual([offset, true, text]);
    }
  });

  it('refuses 50 blocks plus a mention line (Slack allows 50)', () => {
    const blocks = Array.from({ length: 50 }, () => ({ type: 'divider' }));
    expect(() => renderMessage({ blocks, mentions: ['here'] })).toThrow(PluginConfigError);
  });
});
