import { callEvidence, lastStatus } from '../agent-session.js';
import type { BadConfigCall } from '../context.js';
import { plural } from '../excerpt.js';
import { fail, pass, skip, type Rule } from '../rule.js';

const shown = (calls: BadConfigCall[], mask: (s: string) => string) =>
  calls.map((c) => callEvidence(`own template with ${c.label}`, c.outcome, mask));

/** Reached the plugin and came back as a 200 the agent could decode. */
const decoded = (c: BadConfigCall): boolean =>
  !c.outcome.error && !c.outcome.suppressed && lastStatus(c.outcome) === 200;

export const badConfigStatus: Rule = {
  id: 'bad-config-status',
  name: 'a bad plugin body is answered with status 200, never 4xx/5xx',
  severity: 'breaks-workflow',
  stage: 'probe',
  why: 'any status but 200, 404 and 503 is a fatal call error ("400 Bad Request: ...", the message is lost); 404 disables the plugin for the whole workflow; 503 and dropped connections are retried five times first',
  async run(ctx) {
    const calls = await ctx.badConfigCalls();
    const evidence = shown(calls, ctx.mask);
    const wrong = calls.filter((c) => lastStatus(c.outcome) !== 200);
    if (wrong.length > 0) {
      const statuses = wrong.map((c) => lastStatus(c.outcome) ?? c.outcome.error?.message ?? 'no reply');
      return fail(
        `${plural(wrong.length, 'bad body', 'bad bodies')} answered ${statuses.join(', ')} instead of 200 + Failed`,
        evidence,
      );
    }
    return pass(`200 for ${plural(calls.length, 'bad body', 'bad bodies')}`, evidence);
  },
};

export const badConfigFailed: Rule = {
  id: 'bad-config-failed',
  name: 'a bad plugin body is refused as Failed with a message',
  severity: 'hygiene',
  stage: 'probe',
  why: 'Failed + message is what the author sees on the node; a body that is silently accepted (a misspelt field ignored, a wrong type coerced) does something else than what was written',
  async run(ctx) {
    const calls = await ctx.badConfigCalls();
    const evidence = shown(calls, ctx.mask);
    const judged = calls.filter(decoded);
    if (judged.length === 0)
      return skip('no bad body got a 200 reply to judge (see bad-config-status)', evidence);
    const accepted = judged.filter((c) => {
      const node = c.outcome.reply?.node;
      return !node || !['Failed', 'Error'].includes(node.phase ?? '') || !node.message?.trim();
    });
    if (accepted.length > 0) {
      const how = accepted.map((c) => {
        const node = c.outcome.reply?.node;
        const phase = node?.phase ?? 'not executed ({} or null)';
        return `${c.label} → ${phase === 'Failed' || phase === 'Error' ? `${phase} without a message` : phase}`;
      });
      return fail(`not refused: ${how.join('; ')}`, evidence);
    }
    return pass(`Failed with a message for ${plural(judged.length, 'bad body', 'bad bodies')}`, evidence);
  },
};
