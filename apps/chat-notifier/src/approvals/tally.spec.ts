import type { ApprovalAnswer } from './approval-channel.js';
import { tally as countAll, type Tally, type TallyRules } from './tally.js';

/** The tally without the answers it counted by (their own test is below). */
function tally(answers: readonly ApprovalAnswer[], rules: TallyRules): Omit<Tally, 'answers'> {
  const { answers: _counted, ...verdict } = countAll(answers, rules);
  return verdict;
}

const rules = { eligible: new Set(['alice', 'bob', 'botty']), author: 'me', minApprovals: 2, notAfter: 1000 };
const a = (
  user: string,
  vote: ApprovalAnswer['vote'],
  at = 0,
  bot = false,
  comment?: string,
): ApprovalAnswer => ({ user, vote, at, bot, ...(comment !== undefined && { comment }) });

describe('tally: who counts and what decides', () => {
  it.each([
    ['nobody answered', [], { verdict: 'open', people: [] }],
    [
      'one person twice is one approval',
      [a('alice', 'approve'), a('alice', 'approve', 5)],
      { verdict: 'open', people: ['alice'] },
    ],
    [
      'two people approve',
      [a('bob', 'approve', 9), a('alice', 'approve', 3)],
      { verdict: 'approved', people: ['alice', 'bob'] },
    ],
    [
      'one reject wins over approvals',
      [a('alice', 'approve'), a('bob', 'approve'), a('bob', 'reject')],
      { verdict: 'rejected', people: ['bob'] },
    ],
    [
      'a bot, the author and an unlisted user do not count',
      [a('botty', 'approve', 0, true), a('me', 'approve'), a('eve', 'reject'), a('alice', 'approve')],
      { verdict: 'open', people: ['alice'] },
    ],
    [
      'an answer after the deadline does not count',
      [a('alice', 'approve', 10), a('bob', 'approve', 1001)],
      { verdict: 'open', people: ['alice'] },
    ],
  ] as const)('%s', (_name, answers, expected) => {
    expect(tally(answers, rules)).toEqual(expected);
  });

  it('rules: every rule met, one person counted once in each rule they are in', () => {
    const both = {
      ...rules,
      rules: [
        { members: new Set(['alice', 'bob']), minApprovals: 2 },
        { members: new Set(['alice']), minApprovals: 1 },
      ],
    };
    expect(tally([a('alice', 'approve'), a('alice', 'approve', 3)], both)).toEqual({
      verdict: 'open',
      people: ['alice'],
      byRule: [['alice'], ['alice']],
    });
    expect(tally([a('alice', 'approve'), a('bob', 'approve', 3)], both)).toEqual({
      verdict: 'approved',
      people: ['alice', 'bob'],
      byRule: [['alice', 'bob'], ['alice']],
    });
    expect(tally([a('alice', 'approve'), a('bob', 'reject', 3)], both)).toEqual({
      verdict: 'rejected',
      people: ['bob'],
    });
  });

  it("an excluded account (the workflow's creator) does not count, and is reported as ignored", () => {
    const excluded = new Set(['alice']);
    expect(
      tally([a('alice', 'approve'), a('bob', 'approve')], { ...rules, minApprovals: 1, excluded }),
    ).toEqual({ verdict: 'approved', people: ['bob'], ignored: ['alice'] });
    expect(tally([a('alice', 'reject')], { ...rules, excluded })).toEqual({
      verdict: 'open',
      people: [],
      ignored: ['alice'],
    });
  });

  it("each decider's answer: of their vote, the first with a comment, with its time", () => {
    const answers = [
      a('alice', 'approve', 0),
      a('alice', 'approve', 4, false, 'ship it'),
      a('alice', 'approve', 6, false, 'really'),
      a('bob', 'approve', 5),
    ];
    expect(countAll(answers, rules).answers).toEqual([
      { user: 'alice', vote: 'approve', at: 4, comment: 'ship it' },
      { user: 'bob', vote: 'approve', at: 5 },
    ]);
    expect(countAll([...answers, a('bob', 'reject', 7, false, 'not on Friday')], rules).answers).toEqual([
      { user: 'bob', vote: 'reject', at: 7, comment: 'not on Friday' },
    ]);
  });

  it('requireComment: an answer without a comment does not count, and its author is reported', () => {
    const requireComment = { ...rules, minApprovals: 1, requireComment: true };
    expect(tally([a('alice', 'approve'), a('bob', 'reject', 3)], requireComment)).toEqual({
      verdict: 'open',
      people: [],
      uncommented: ['alice', 'bob'],
    });
    expect(tally([a('alice', 'approve'), a('bob', 'approve', 3, false, 'ship it')], requireComment)).toEqual({
      verdict: 'approved',
      people: ['bob'],
      uncommented: ['alice'],
    });
    expect(tally([a('alice', 'approve', 2), a('alice', 'approve', 3, false, 'ok')], requireComment)).toEqual({
      verdict: 'approved',
      people: ['alice'],
    });
  });
});
