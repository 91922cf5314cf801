import { connect } from 'node:net';
import { formatDuration } from '@app/contract';
import { RunContext, type Target } from './context.js';
import { readCount } from './count-url.js';
import { displayCommand, LaunchedPlugin, type LaunchSpec } from './launcher.js';
import { scoreOf, type ConformanceReport } from './report/report.js';
import { fail, skip, type Rule, type RuleResult, type RuleVerdict, type Stage } from './rule.js';
import { RULES } from './rules/index.js';
import { SecretScanner, type SecretValue } from './secrets.js';
import { TOOL_NAME, VERSION } from './version.js';
import { WireTap } from './wire-tap.js';

export interface ConformanceOptions {
  /** Base URL of the plugin, e.g. http://127.0.0.1:4355 (http only: the agent calls http://localhost:<port>). */
  url: string;
  /** The agent's bearer token (content of the plugin's token file, trimmed). */
  token: string;
  key: string;
  /** Example plugin body: the value under the key. */
  config?: unknown;
  countUrl?: string;
  /** Authorization header of the count requests (e.g. `Bearer <token>`); never shown in a report. */
  countAuthorization?: string;
  /** Values that must never appear in a reply; the token is always added. */
  secrets?: SecretValue[];
  /** Launch the plugin (cold start and SIGTERM rules). */
  start?: LaunchSpec;
  /** Factor for the agent's retry backoff and for requeues (1 = as in a cluster). */
  timeScale?: number;
  /** Start window (default 15 s, the agent's); not scaled by timeScale. */
  startWindowMs?: number;
  gracePeriodMs?: number;
  pollTimeoutMs?: number;
  /** The whole run's bound (default: deadlineFor(pollTimeoutMs)). */
  deadlineMs?: number;
  /** Rule ids not to run. */
  skip?: string[];
  /** Called as each rule finishes (progress). */
  onResult?: (result: RuleResult) => void;
}

/** The run could not start: bad input or an unreachable plugin/counter. Exit code 2. */
export class SetupError extends Error {}

const STAGES: Stage[] = ['start', 'probe', 'stop', 'judge'];

/**
 * The default bound of a whole run: room for its four polls to a final phase (baseline, idempotency, two
 * tolerance variants) of at most `pollTimeoutMs` each, plus 10 minutes for everything else (30 minutes with
 * the default 5-minute poll timeout).
 */
export function deadlineFor(pollTimeoutMs: number): number {
  return 4 * pollTimeoutMs + 10 * 60_000;
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const started = new Date();
  const target = resolveTarget(options);
  const unknown = (options.skip ?? []).filter((id) => !RULES.some((r) => r.id === id));
  if (unknown.length > 0) throw new SetupError(`unknown rule id(s) to skip: ${unknown.join(', ')}`);
  if (target.countUrl) {
    await readCount(target.countUrl, target.countAuthorization).catch((err: Error) => {
      throw new SetupError(err.message);
    });
  }
  const tap = new WireTap(target.url);
  await tap.start();
  const scanner = new SecretScanner([
    ...(options.secrets ?? []),
    { name: 'agent token', value: options.token },
    ...(options.countAuthorization
      ? [{ name: 'count authorization', value: options.countAuthorization }]
      : []),
  ]);
  const ctx = new RunContext(target, tap, scanner);
  const results = new Map<string, RuleResult>();
  const record = (rule: Rule, verdict: RuleVerdict, ms = 0): void => {
    const result: RuleResult = {
      id: rule.id,
      name: rule.name,
      severity: rule.severity,
      why: rule.why,
      ms,
      ...verdict,
    };
    results.set(rule.id, result);
    options.onResult?.(result);
  };
  const cleanup = (): void => ctx.launched?.kill();
  process.once('exit', cleanup);
  const deadline = setTimeout(
    () => ctx.stop(`the run's deadline (${formatDuration(target.deadlineMs)}) passed`),
    target.deadlineMs,
  );
  const stopped = new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
  // The rule running when the run stops fails with the reason; whatever it still waits for is abandoned.
  const untilStopped = (verdict: Promise<RuleVerdict>): Promise<RuleVerdict> =>
    Promise.race([verdict, stopped.then(() => fail(ctx.stopped!.reason, ctx.stopped!.evidence))]);
  try {
    if (options.start) ctx.launched = LaunchedPlugin.start(options.start);
    else await assertReachable(target.url);
    // Set when the plugin is gone: later probes are skipped; the judges still read what was recorded,
    // unless the plugin never answered at all.
    let blocked: string | undefined;
    let neverAnswered = false;
    for (const stage of STAGES) {
      // Every run judges at least one own-template call.
      if (stage === 'judge' && !blocked && !ctx.stopped) await Promise.race([ctx.baseline(), stopped]);
      for (const rule of RULES.filter((r) => r.stage === stage)) {
        if (options.skip?.includes(rule.id)) {
          record(rule, skip('skipped with --skip'));
          continue;
        }
        // The judges only read what was recorded: they run whatever stopped the run.
        if (ctx.stopped && stage !== 'judge') {
          record(rule, skip(`not run: ${ctx.stopped.reason}`));
          continue;
        }
        if (blocked && (stage !== 'judge' || neverAnswered)) {
          record(rule, skip(blocked));
          continue;
        }
        const t0 = performance.now();
        let verdict: RuleVerdict;
        try {
          verdict = await untilStopped(rule.run(ctx));
        } catch (err) {
          verdict = fail(`the check itself failed: ${ctx.mask((err as Error).message)}`);
        }
        record(rule, verdict, Math.round(performance.now() - t0));
        if (rule.id === 'cold-start' && verdict.status === 'fail') {
          blocked = 'the plugin never answered (see cold-start)';
          neverAnswered = true;
        } else if (ctx.launched?.exit && stage === 'probe' && !blocked) {
          blocked = `the plugin exited during ${rule.id}`;
          ctx.notes.push(`the plugin process exited during ${rule.id}; later rules were not run`);
        }
      }
    }
  } finally {
    clearTimeout(deadline);
    cleanup();
    process.off('exit', cleanup);
    await tap.close();
  }
  refusedEveryCall(tap);
  const ordered = RULES.map((r) => results.get(r.id)!);
  return {
    tool: TOOL_NAME,
    version: VERSION,
    target: {
      url: target.url.href,
      key: target.key,
      config: target.config !== undefined,
      countUrl: target.countUrl,
      start: options.start ? scanner.mask(displayCommand(options.start.command)) : undefined,
      timeScale: target.timeScale,
    },
    startedAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    results: ordered,
    score: scoreOf(ordered),
    notes: ctx.notes,
    ...(ctx.stopped && { stopped: ctx.stopped.reason }),
  };
}

/**
 * A plugin that answered the agent's token with 403 every time reads another token: its "failures" say
 * nothing about it, so the run is a setup error naming the likely cause.
 */
function refusedEveryCall(tap: WireTap): void {
  const answered = tap.exchanges.filter((e) => e.status !== undefined);
  if (answered.length > 0 && answered.every((e) => e.status === 403))
    throw new SetupError(
      `every call got 403: does the plugin read the same token file? (${answered.length} calls with the token of --token-file; a plugin started by --start gets its path as TOKEN_FILE)`,
    );
}

function resolveTarget(options: ConformanceOptions): Target {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new SetupError(`--url: not a URL: ${options.url}`);
  }
  if (url.protocol !== 'http:')
    throw new SetupError('--url: the agent talks plain http to localhost; give an http:// URL');
  if (!options.key) throw new SetupError('--key: the plugin key is required');
  if (!options.token) throw new SetupError('the token is empty');
  if (/[\r\n]/.test(options.token)) throw new SetupError('the token contains a line break');
  const timeScale = options.timeScale ?? 1;
  const pollTimeoutMs = options.pollTimeoutMs ?? 300_000;
  if (!(timeScale > 0)) throw new SetupError('--time-scale must be a positive number');
  return {
    url,
    key: options.key,
    token: options.token,
    config: options.config,
    countUrl: options.countUrl,
    countAuthorization: options.countAuthorization,
    timeScale,
    startWindowMs: options.startWindowMs ?? 15_000,
    gracePeriodMs: options.gracePeriodMs ?? 30_000,
    pollTimeoutMs,
    deadlineMs: options.deadlineMs ?? deadlineFor(pollTimeoutMs),
  };
}

function assertReachable(url: URL, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port || 80), url.hostname);
    const timer = setTimeout(
      () => socket.destroy(new Error(`no connection within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new SetupError(
          `cannot reach the plugin at ${url.href}: ${err.code ?? err.message} (start it, or give --start)`,
        ),
      );
    });
  });
}
