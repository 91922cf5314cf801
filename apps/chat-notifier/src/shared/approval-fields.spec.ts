import { firstLine } from './approval-fields.js';

describe('firstLine: a ticket title or summary from a request text', () => {
  it('is the first line, cut to the limit with …', () => {
    expect(firstLine('  Deploy 1.4.2?\nthe details', 80)).toBe('Deploy 1.4.2?');
    expect(firstLine(`${'x'.repeat(100)}\nmore`, 80)).toBe(`${'x'.repeat(79)}…`);
  });

  it('never cuts a character outside the BMP in half (Jira, ServiceNow and GitHub show U+FFFD for it)', () => {
    for (const offset of [0, 1])
      expect([offset, firstLine(`${'.'.repeat(offset)}${'🚀'.repeat(100)}`, 80)]).toEqual([
        offset,
        expect.stringMatching(/^\.?(🚀)+…$/u),
      ]);
  });
});
