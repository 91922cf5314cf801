import { callEvidence, lastStatus } from '../agent-session.js';
import { EXECUTE_PATH } from '../context.js';
import { excerpt } from '../excerpt.js';
import type { ExitStatus } from '../launcher.js';
import type { RawExchange } from '../raw-http.js';
import { executeBody } from '../requests.js';
import { fail, pass, skip, type Evidence, type Rule } from '../rule.js';

const describeExit = (e: ExitStatus): string => (e.signal ? `killed by ${e.signal}` : `exit code ${e.code}`);

const outputTail = (text: string, mask: (s: string) => string): string =>
  excerpt(text.trim().split('\n').slice(-3).join(' | '), mask, 300);

export const coldStart: Rule = {
  id: 'cold-start',
  name: "the plugin answers within the agent's connection-refused window (~15 s)",
  severity: 'breaks-workflow',
  stage: 'start',
  why: 'the agent starts calling as soon as its container runs; "connection refused" is retried 5 times over about 15 s (1+2+4+8 s, +20 % jitter), then the node fails',
  async run(ctx) {
    const launched = ctx.launched;
    if (!launched) return skip('needs --start: the kit launches the plugin to time its start');
    // The agent's 5 attempts sleep 1, 2, 4 and 8 backoff units: 15 units in all.
    const windowMs = ctx.target.startWindowMs;
    const timing = { ...ctx.timing, backoffMs: windowMs / 15 };
    const body = executeBody(ctx.workflow('cold-start'), ctx.foreignKey, {});
    const call = ctx.session(timing).call('cold-start', 'first call after spawn', body);
    const first = await Promise.race([call, launched.exited]);
    if ('code' in first) {
      const agent = await call; // the agent keeps retrying through its window: so does this check
      return fail(`the plugin exited (${describeExit(first)}) ${first.at} ms after spawn, before answering`, [
        callEvidence('first call after spawn', agent, ctx.mask),
        { what: 'plugin output (last lines)', body: outputTail(launched.output(), ctx.mask) },
      ]);
    }
    const readyMs = launched.sinceSpawn();
    const evidence: Evidence[] = [
      {
        ...callEvidence('first call after spawn', first, ctx.mask),
        ms: readyMs,
        note: `${first.attempts.length} attempt(s); answered ${readyMs} ms after spawn`,
      },
    ];
    const status = lastStatus(first);
    if (status === undefined || status === 503) {
      return fail(
        `no answer within the ~${Math.round(windowMs / 1000)} s window (${first.error?.message ?? 'no reply'}): the agent fails the node`,
        [...evidence, { what: 'plugin output (last lines)', body: outputTail(launched.output(), ctx.mask) }],
      );
    }
    return pass(
      `answered ${readyMs} ms after spawn (attempt ${first.attempts.length} of 5; window ~${Math.round(windowMs / 1000)} s)`,
      evidence,
    );
  },
};

export const sigterm: Rule = {
  id: 'sigterm',
  name: 'SIGTERM ends the plugin gracefully: exit code 0 within the grace period',
  severity: 'hygiene',
  stage: 'stop',
  why: 'the agent pod is deleted when the workflow ends or is stopped; the plugin only ever sees SIGTERM (then SIGKILL after terminationGracePeriodSeconds): it is its one chance to finish or cancel work',
  async run(ctx) {
    const launched = ctx.launched;
    if (!launched) return skip('needs --start: the kit launches the plugin to stop it');
    if (launched.exit)
      return fail(`the plugin had already exited during the run (${describeExit(launched.exit)})`);
    const grace = ctx.target.gracePeriodMs;
    let inFlight: Promise<RawExchange> | undefined;
    if (ctx.hasConfig) {
      let markSent!: () => void;
      const sent = new Promise<void>((resolve) => (markSent = resolve));
      inFlight = ctx.request({
        what: 'own template in flight at SIGTERM',
        method: 'POST',
        path: EXECUTE_PATH,
        headers: { Authorization: ctx.authorization },
        body: ctx.ownBody(ctx.workflow('sigterm')),
        timeoutMs: grace + 5000,
        onSent: () => markSent(),
      });
      await Promise.race([sent, inFlight]);
    }
    const stopped = await launched.terminate(grace);
    const evidence: Evidence[] = [
      {
        what: 'SIGTERM',
        ms: stopped.ms,
        note: stopped.killed ? `still running after ${grace} ms: SIGKILLed` : describeExit(stopped.exit),
      },
    ];
    if (inFlight) {
      const e = await inFlight;
      const answered = e.status !== undefined;
      evidence.push({
        what: e.what,
        status: e.status,
        body: excerpt(e.error ? `${e.error} ${e.text}` : e.text, ctx.mask),
        ms: e.ms,
        note: answered ? 'answered before the exit' : 'dropped (the agent would retry it)',
      });
    }
    if (stopped.killed)
      return fail(`ignored SIGTERM: still running ${grace} ms later, the kubelet SIGKILLs it`, evidence);
    if (stopped.exit.code !== 0)
      return fail(`stopped with ${describeExit(stopped.exit)} instead of exit code 0`, evidence);
    return pass(`exit code 0, ${stopped.ms} ms after SIGTERM`, evidence);
  },
};
