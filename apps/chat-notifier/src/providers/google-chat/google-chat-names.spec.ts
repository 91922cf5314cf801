import { isChatResourceName } from './google-chat-names.js';

describe('Chat API resource names, segment by segment', () => {
  it('takes the documented shapes, system message IDs with dots included', () => {
    expect(isChatResourceName('spaces/AAAAbCdEfGh', 'space')).toBe(true);
    expect(
      isChatResourceName('spaces/AAAA/messages/UBHHVc_AAAAJSE0o_0I.UBHHVc_AAAAJSE0o_0I', 'message'),
    ).toBe(true);
    expect(isChatResourceName('spaces/AAAA/messages/client-0123abcd', 'message')).toBe(true);
    expect(isChatResourceName('spaces/AAAA/threads/P-Wrb5DYPGc', 'thread')).toBe(true);
  });

  it('refuses . and .. segments, empty ones, other collections and other lengths', () => {
    for (const name of [
      'spaces/AAAA/messages/..',
      'spaces/AAAA/messages/.',
      'spaces/AAAA/messages/a..b',
      'spaces/AAAA/messages/.a',
      'spaces/AAAA/messages/a.',
      'spaces/../messages/a',
      'spaces/AAAA/messages/',
      'spaces/AAAA/messages/a/b',
      'spaces/AAAA/threads/a',
      'spaces/AAAA/messages/a%2F..',
    ])
      expect({ name, ok: isChatResourceName(name, 'message') }).toEqual({ name, ok: false });
    expect(isChatResourceName('spaces/AA.AA', 'space')).toBe(false);
    expect(isChatResourceName('spaces/AAAA/threads/..', 'thread')).toBe(false);
  });
});
