import { COMMENT_LIMIT, commentAfterKeyword } from './answer-comment.js';

describe('the comment after the keyword of an answer', () => {
  it.each([
    ['approve: ship it', 'ship it'],
    ['Reject - not on Friday', 'not on Friday'],
    ['Approve, tests are green', 'tests are green'],
    ['/deny   not today\n\nthe freeze is on', 'not today the freeze is on'],
    ['approve,tests are green', 'tests are green'],
    ['approve', undefined],
    ['  approve:  ', undefined],
  ])('%j → %j', (text, comment) => {
    expect(commentAfterKeyword(text)).toBe(comment);
  });

  it('cuts a long comment to the limit', () => {
    const comment = commentAfterKeyword(`approve ${'x'.repeat(COMMENT_LIMIT + 10)}`)!;
    expect(comment).toHaveLength(COMMENT_LIMIT);
    expect(comment.endsWith('…')).toBe(true);
  });

  it('never cuts a character outside the BMP in half', () => {
    for (const offset of [0, 1]) {
      const comment = commentAfterKeyword(`approve ${'x'.repeat(offset)}${'🚀'.repeat(COMMENT_LIMIT)}`)!;
      expect([offset, Buffer.from(comment).toString()]).toEqual([offset, comment]);
    }
  });
});
