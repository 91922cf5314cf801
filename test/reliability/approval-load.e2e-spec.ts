import {
  SlackApiStandIn,
  APPROVAL_SCOPES,
} from '../../apps/chat-notifier/stand-ins/slack/slack-api.stand-in.js';
import { DEFAULT_BOT_SCOPES } from '../../apps/chat-notifier/stand-ins/slack/slack-state.js';
import { launch } from './support/plugin-run.js';
import { report, size } from './support/report.js';
import { SecretSweep } from './support/secret-sweep.js';
import { failures, runSequence } from './support/sequence-workflow.js';
import { discoverApps } from './support/targets.js';

/**
 * Approval gates at scale, in real time: GATES gates open at once on one chat-notifier sidecar (the built bundle
 * under its manifest's node flags and memory limit) against the Slack stand-in, whose scripted approver approves
 * each request on its APPROVE_AT-th poll. The sidecar's budget is BUDGET reads a minute
 * (SLACK_APPROVAL_CALLS_PER_MINUTE; Slack's own 50 would take a quarter of an hour) and the stand-in's tier is
 * TIER. The gates want more than the budget in the first minute: their first calls (a post each) all at once,
 * and the polls that follow from 10 s on at the schedule's pace. Without the sidecar's limiter those reads go
 * over the budget (measured: 1,000 in a minute against 700); with it the late ones wait for their slots. The reads of any
 * 60 s (a read begins with chat.postMessage for a gate's first call, reactions.get for a poll) and every
 * method's calls must stay within the budget, the stand-in must answer no 429, each gate must post exactly one
 * request and be approved, and the sidecar's peak memory must stay under the manifest's limit.
 */
const GATES = Number(process.env.APPROVAL_LOAD_GATES ?? size(500, 2000));
const APPROVE_AT = size(1, 4);
const BUDGET = size(700, 1200);
const TIER = 1500;
const WINDOW_MS = 60_000;
const TOKEN = 'xoxb-load-0000000000-0000000000000-approvalgatesunderload';

/** The most calls of `method` in any window of `windowMs`. */
function busiestWindow(times: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe('approval gates under load', () => {
  it(
    `${GATES} gates open at once on one sidecar: every method within the budget, memory within the manifest's limit`,
    async () => {
      const target = discoverApps().targets.find((t) => t.name === 'chat-notifier')!;
      const slack = await new SlackApiStandIn().start();
      const team = slack.addTeam('load');
      const bot = slack.addBot(team, TOKEN, [...DEFAULT_BOT_SCOPES, ...APPROVAL_SCOPES]);
      const alice = team.addUser('alice');
      team.addChannel('deploys', { members: [bot.userId, alice] });
      const methods = ['reactions.get', 'conversations.replies', 'conversations.history', 'chat.postMessage'];
      slack.tierLimits = {
        perWindow: Object.fromEntries(methods.map((m) => [m, TIER])),
        windowMs: WINDOW_MS,
      };
      slack.approverScript = [{ afterPolls: APPROVE_AT, user: alice, react: 'white_check_mark' }];
      const sweep = new SecretSweep();
      sweep.add('bot token', TOKEN);
      const run = await launch(target, {
        sweep,
        env: { MAX_EXECUTIONS: String(GATES), SLACK_APPROVAL_CALLS_PER_MINUTE: String(BUDGET) },
        rewriteEnv: (env) => ({ ...env, SLACK_BOT_TOKEN: TOKEN, SLACK_API_URL: slack.apiUrl }),
      });
      try {
        const gate = { slack: { channel: '#deploys', text: 'Deploy?', approvers: [alice] }, timeout: '168h' };
        const outcome = await runSequence(
          { ...run, target: { ...run.target, key: 'approve', config: gate } },
          GATES,
          { name: 'approval-load', timeScale: 1, deadlineMs: size(5, 20) * 60_000 },
        );
        const memory = run.memory();
        const byMethod = new Map<string, number[]>();
        for (const c of slack.apiCalls) byMethod.set(c.method, [...(byMethod.get(c.method) ?? []), c.at]);
        const busiest = Object.fromEntries(
          [...byMethod].map(([m, times]) => [
            m,
            busiestWindow(
              times.sort((a, b) => a - b),
              WINDOW_MS,
            ),
          ]),
        );
        const readStarts = slack.apiCalls
          .filter((c) => c.method === 'chat.postMessage' || c.method === 'reactions.get')
          .map((c) => c.at)
          .sort((a, b) => a - b);
        const reads = busiestWindow(readStarts, WINDOW_MS);
        const limited = slack.apiCalls.filter((c) => c.error === 'ratelimited').length;
        const posts = slack.okCalls('chat.postMessage').length;
        const updates = slack.okCalls('chat.update').length;
        report(
          `approval load: ${GATES} gates, approved on poll ${APPROVE_AT}, ${(outcome.ms / 1000).toFixed(1)} s, ` +
            `busiest 60 s: ${reads} reads; ${Object.entries(busiest)
              .map(([m, n]) => `${m} ${n}`)
              .join(', ')} (budget ${BUDGET}, stand-in tier ${TIER}), ${limited} answered 429, ` +
            `${posts} requests posted, ${updates} concluded, ${outcome.calls} plugin calls, peak RSS ${memory.peakMb.toFixed(0)} MB (limit ${target.memoryLimitMiB} MiB, ${run.proc.memoryModel})`,
        );
        expect({ crashes: run.crashes, phases: outcome.phases, failures: failures(outcome) }).toEqual({
          crashes: [],
          phases: { Succeeded: GATES },
          failures: [],
        });
        expect(posts).toBe(GATES);
        expect(updates).toBe(GATES);
        expect({ reads, withinBudget: reads <= BUDGET }).toEqual({ reads, withinBudget: true });
        for (const [method, most] of Object.entries(busiest))
          expect({ method, withinBudget: most <= BUDGET }).toEqual({ method, withinBudget: true });
        expect(limited).toBe(0);
        expect(memory.peakMb).toBeLessThan(target.memoryLimitMiB!);
        expect(sweep.check()).toEqual([]);
      } finally {
        await run.close();
        await slack.close();
      }
    },
    size(180_000, 1_800_000),
  );
});
