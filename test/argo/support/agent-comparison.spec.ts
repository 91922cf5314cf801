// The comparison of the two agents' outcomes (runs in npm test: it needs no stack).
import {
  compareTwice,
  differences,
  followsReplies,
  maskMinted,
  realOutcome,
  type AgentOutcome,
  type SeenRequest,
} from './agent-comparison.js';

const call = (t: number, node: string, phase: string, requeueMs?: number, ms = 10): SeenRequest => ({
  t,
  execute: true,
  reply: { node, phase, requeueMs, ms },
});

const outcome = (requests: SeenRequest[], extra: Partial<AgentOutcome> = {}): AgentOutcome => ({
  phase: 'Succeeded',
  nodes: { build: { phase: 'Succeeded', message: 'done' } },
  requests,
  ...extra,
});

describe('comparing the local agent and the real one', () => {
  it('counts calls: a different number is a difference, with both lists of calls', () => {
    const local = outcome([call(0, 'a', 'Running', 1000), call(1010, 'a', 'Succeeded')]);
    const real = outcome([{ t: 0, execute: true }]);
    expect(differences(local, real)).toEqual([
      'plugin requests in all: local 2 / real 1',
      'template.execute calls in all: local 2 / real 1',
      'calls: local [+0.0s, +1.0s] / real [+0.0s]',
    ]);
  });

  it('calls each made as its own replies asked are the same decisions, whatever the replies', () => {
    const local = outcome([call(0, 'a', 'Succeeded')]);
    // A slow upstream made the real plugin answer Running once (the call took 8 s), and the agent came back 5 s later.
    const real = outcome([
      call(8000, 'a', 'Running', 5000, 8000),
      call(13_300, 'a', 'Succeeded', undefined, 300),
    ]);
    expect(followsReplies(real.requests)).toBe(true);
    expect(differences(local, real)).toEqual([]);
  });

  it('a call that came too early, too late, or after a final reply does not follow the replies', () => {
    expect(followsReplies([call(0, 'a', 'Running', 5000), call(1000, 'a', 'Succeeded')])).toBe(false);
    expect(followsReplies([call(0, 'a', 'Running', 5000), call(9000, 'a', 'Succeeded')])).toBe(false);
    expect(followsReplies([call(0, 'a', 'Succeeded'), call(5000, 'a', 'Succeeded')])).toBe(false);
    expect(followsReplies([call(0, 'a', 'Running', 5000)])).toBe(false);
  });

  it('a node called on after its end is compared within the window both agents called', () => {
    const every = (n: number) => Array.from({ length: n }, (_, i) => ({ t: i * 1000, execute: true }));
    const local = outcome(every(4), { cutShort: true });
    expect(differences(local, outcome(every(7)))).toEqual([]);
    expect(differences(local, outcome([0, 2000, 4000, 6000].map((t) => ({ t, execute: true }))))).toEqual([
      'plugin requests within 3.5 s of the first: local 4 / real 2',
      'template.execute calls within 3.5 s of the first: local 4 / real 2',
      'calls: local [+0.0s, +1.0s, +2.0s, +3.0s] / real [+0.0s, +2.0s, +4.0s, +6.0s]',
    ]);
  });

  it('cut short, a call more or less in the window is the same decision when both called as their replies asked', () => {
    // A Failed reply that asks for a requeue of 1 s: the local agent (on a busy machine) came back every 1.2 s.
    const failed = (times: number[]) => times.map((t) => call(t, 'a', 'Failed', 1000));
    const local = outcome(failed([0, 1200, 2400, 3700]), { cutShort: true });
    expect(differences(local, outcome(failed([0, 1000, 2000, 3000, 4000, 5000])))).toEqual([]);
    expect(differences(local, outcome(failed([0, 1000, 5000, 6000, 7000])))).toEqual([]);
    // Asked for 5 s and called again every second: a different decision.
    const early = [0, 1000, 2000, 3000, 4000, 5000].map((t) => call(t, 'a', 'Failed', 5000));
    expect(differences(local, outcome(early))).toEqual([
      'plugin requests within 4.2 s of the first: local 4 / real 5',
      'template.execute calls within 4.2 s of the first: local 4 / real 5',
      'calls: local [+0.0s, +1.2s, +2.4s, +3.7s] / real [+0.0s, +1.0s, +2.0s, +3.0s, +4.0s, +5.0s]',
    ]);
  });

  it('phases, messages and outputs are compared (outputs whatever their key order)', () => {
    const local = outcome([], {
      nodes: { build: { phase: 'Succeeded', outputs: { result: 'r', exitCode: '0' } } },
    });
    const real = outcome([], {
      nodes: { build: { phase: 'Succeeded', outputs: { exitCode: '0', result: 'r' } } },
    });
    expect(differences(local, real)).toEqual([]);
    expect(differences(local, outcome([], { message: 'child failed', phase: 'Failed' }))).toEqual([
      'workflow phase: local "Succeeded" / real "Failed"',
      'workflow message: local - / real "child failed"',
      'node build message: local - / real "done"',
      'node build outputs: local {"exitCode":"0","result":"r"} / real -',
    ]);
  });

  it('node ids in messages read as the node names, the workflow name as <workflow>', () => {
    const real = realOutcome(
      {
        name: 'wf-abcde',
        phase: 'Failed',
        message: "child 'wf-abcde-3144665063' failed",
        nodes: {
          'wf-abcde-3144665063': { name: 'wf-abcde[1].b', displayName: 'b', type: 'Plugin', phase: 'Failed' },
        } as never,
      },
      [],
    );
    expect(real.message).toBe("child '{node <workflow>[1].b}' failed");
  });

  it('what stand-ins mint is masked: words with digits, random mixed case, long upper-case ids', () => {
    expect(
      maskMinted('posted to #builds: https://argo-demo.slack.com/archives/CCSN34UBYYM/p1795779975000001'),
    ).toBe('posted to #builds: https://argo-demo.slack.com/archives/#/#');
    expect(maskMinted('replied in thread spaces/AAAAreleases/threads/McuaDadIAks: ABCDEFGHIJ')).toBe(
      'replied in thread spaces/AAAAreleases/threads/#: #',
    );
    expect(maskMinted('Succeeded (TERMINATED)')).toBe('Succeeded (#)');
    expect(maskMinted('the run failed')).toBe('the run failed');
  });
});

describe('a case that differs is played once more', () => {
  it('passes when the second round agrees, fails when it differs again, and plays only what differed', async () => {
    const same = outcome([]);
    const other = outcome([], { phase: 'Failed' });
    const rounds: string[][] = [];
    // "flaky" differs in round 0 only; "broken" in both; "fine" never.
    const play = async (batch: string[], round: 0 | 1) => {
      rounds.push(batch);
      return batch.map((label) => ({
        label,
        local: same,
        real: label === 'broken' || (label === 'flaky' && round === 0) ? other : same,
      }));
    };
    const { results, differing, lines } = await compareTwice(['fine', 'flaky', 'broken'], (c) => c, play);
    expect(rounds).toEqual([
      ['fine', 'flaky', 'broken'],
      ['flaky', 'broken'],
    ]);
    expect(results.map((r) => r.label)).toEqual(['fine', 'flaky', 'broken']);
    expect(differing.map((r) => r.label)).toEqual(['broken']);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^DIFF {2}flaky: .*\(the same when played again\)$/s);
    expect(lines[1]).toMatch(/^DIFF {2}broken: /);
    expect(lines[1]).not.toMatch(/played again/);
  });
});
