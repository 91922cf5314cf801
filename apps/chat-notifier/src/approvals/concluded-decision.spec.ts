import { conclusionLine, decisionOfLine } from './concluded-decision.js';

const URL = 'https://chat.example/p/1';
const AT = '2026-06-07T10:00:00.000Z';

describe('the decision a concluded request shows', () => {
  it.each([
    [
      `:white_check_mark: Approved by <@U0ALICE001>, <@U0BOB00001> at ${AT}`,
      { decision: 'approved', succeeded: true, approvers: ['U0ALICE001', 'U0BOB00001'] },
      `approved by U0ALICE001, U0BOB00001 at ${AT}: ${URL}`,
    ],
    [
      `:x: Rejected by @bob at ${AT}`,
      { decision: 'rejected', succeeded: false, approvers: ['bob'] },
      `rejected by bob at ${AT}: ${URL}`,
    ],
    [
      `:hourglass: No decision within 1h30m; approved by onTimeout at ${AT}`,
      { decision: 'approved', succeeded: true, approvers: [] },
      `no decision within 1h30m; approved by onTimeout: ${URL}`,
    ],
    [
      `:hourglass: No decision within 2s; the gate failed at ${AT}`,
      { decision: 'timeout', succeeded: false, approvers: [] },
      `no decision within 2s; the gate failed: ${URL}`,
    ],
    [
      `:warning: Changed by someone else; the gate failed safely at ${AT}`,
      { decision: 'tampered', succeeded: false, approvers: [] },
      `the approval request was changed by someone else; failing safely: ${URL}`,
    ],
  ])('%s', (line, decision, message) => {
    const text = `Deploy?\n\nNeeds one approval from <@U0ALICE001>. React ✅ to approve.\n\n${line}`;
    expect(conclusionLine(text)).toBe(line);
    expect(decisionOfLine(line, URL)).toEqual({
      ...decision,
      decidedAt: AT,
      url: URL,
      message,
      conclusion: line,
    });
  });

  it.each([
    ['bare', 'https://chat.example/p/0'],
    ["in Slack's form", '<https://chat.example/p/0>'],
  ])(
    "a deleted request's record (%s link): the decision names the deleted request, not the record",
    (_form, shown) => {
      const line = `:wastebasket: Deleted before a decision: ${shown}; the gate failed safely at ${AT}`;
      const text = `The approval request of this step was deleted before a decision: ${shown}\n\n${line}`;
      expect(conclusionLine(text)).toBe(line);
      expect(decisionOfLine(line, URL)).toEqual({
        decision: 'deleted',
        succeeded: false,
        approvers: [],
        decidedAt: AT,
        url: 'https://chat.example/p/0',
        message:
          'the approval request was deleted before a decision; failing safely: https://chat.example/p/0',
        conclusion: line,
      });
    },
  );

  it('reads back who approved under which rule (a gate with rules)', () => {
    const line = `:white_check_mark: Approved by <@U0ALICE001>, <@U0BOB00001> at ${AT}\nBy rule: <@U0ALICE001> | <@U0BOB00001>, <@U0ALICE001>`;
    expect(conclusionLine(`Deploy?\n\nNeeds one approval from <@U0ALICE001>.\n\n${line}`)).toBe(line);
    expect(decisionOfLine(line, URL)).toMatchObject({
      decision: 'approved',
      approvers: ['U0ALICE001', 'U0BOB00001'],
      byRule: [['U0ALICE001'], ['U0BOB00001', 'U0ALICE001']],
    });
  });

  it("reads back each decider's answer, its time and its comment", () => {
    const line = `:x: Rejected by <@U0BOB00001> at ${AT}\n- <@U0BOB00001> reject at 2026-06-07T09:59:58.123Z: not on Friday: the freeze`;
    expect(conclusionLine(`Deploy?\n\nNeeds one approval.\n\n${line}`)).toBe(line);
    expect(decisionOfLine(line, URL)?.answers).toEqual([
      {
        user: 'U0BOB00001',
        vote: 'reject',
        at: Date.parse('2026-06-07T09:59:58.123Z'),
        comment: 'not on Friday: the freeze',
      },
    ]);
    const reactions = `:white_check_mark: Approved by @alice, @bob at ${AT}\n- @alice approve at an unknown time\n- @bob approve at ${AT}: ok\nBy rule: @alice | @bob`;
    expect(decisionOfLine(reactions, URL)).toMatchObject({
      answers: [
        { user: 'alice', vote: 'approve', at: 0 },
        { user: 'bob', vote: 'approve', at: Date.parse(AT), comment: 'ok' },
      ],
      byRule: [['alice'], ['bob']],
    });
    // A line under the decision that is not an answer: not a line the gate wrote.
    expect(conclusionLine(`Deploy?\n\n:x: Rejected by <@U1> at ${AT}\n- <@U1> said no`)).toBeUndefined();
  });

  it('finds none in a request not concluded, nor in a line that only looks like one', () => {
    expect(conclusionLine('Deploy?\n\nNeeds one approval from <@U1>. React ✅ to approve.')).toBeUndefined();
    expect(conclusionLine(`:x: Rejected by <@U1> at ${AT}`)).toBeUndefined(); // not below a request
    expect(conclusionLine(`Deploy?\n\n:x: Rejected by <@U1> at yesterday`)).toBeUndefined();
    expect(conclusionLine(`Deploy?\n\n:x: Rejected by <@U1> at ${AT} (really)`)).toBeUndefined();
  });
});
