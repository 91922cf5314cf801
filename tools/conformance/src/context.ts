import type { RpcTiming } from '@app/argo-agent/plugin-rpc-client.js';
import { AgentSession, callEvidence, timedOut, type CallOutcome } from './agent-session.js';
import { readCount } from './count-url.js';
import { sleep } from './excerpt.js';
import type { LaunchedPlugin } from './launcher.js';
import { pollUntilFinal, type PollOutcome } from './poll.js';
import {
  bigBodyProbe,
  rawRequest,
  type BigBodyProbe,
  type BigBodyResult,
  type RawExchange,
  type RawRequest,
} from './raw-http.js';
import {
  badConfigs,
  executeBody,
  newWorkflow,
  sortedKeys,
  type BadConfig,
  type WorkflowMeta,
} from './requests.js';
import type { Evidence } from './rule.js';
import type { SecretScanner } from './secrets.js';
import type { Exchange, Purpose, WireTap } from './wire-tap.js';

export const EXECUTE_PATH = '/api/v1/template.execute';

/** Everything a run is told, defaults applied. */
export interface Target {
  url: URL;
  key: string;
  token: string;
  /** The example plugin body (the value under the key), if given. */
  config?: unknown;
  countUrl?: string;
  /** Authorization header of the count requests. */
  countAuthorization?: string;
  /** Factor applied to the agent's waits: retry backoff and requeues (1 = as in a cluster). */
  timeScale: number;
  /** How long "connection refused" is retried at start: the agent's backoff sum, 1+2+4+8 s. Not scaled. */
  startWindowMs: number;
  gracePeriodMs: number;
  pollTimeoutMs: number;
  /** The whole run's bound: past it, the rule running fails and the rest are not run. */
  deadlineMs: number;
}

/** Why a run stopped before its end, and what showed it. */
export interface Stop {
  reason: string;
  evidence: Evidence[];
}

export interface BadConfigCall extends BadConfig {
  outcome: CallOutcome;
}

/** State shared by the rules of one run: the plugin, the wire record, and scenarios several rules judge. */
export class RunContext {
  readonly outcomes: CallOutcome[] = [];
  readonly raw: RawExchange[] = [];
  readonly notes: string[] = [];
  launched?: LaunchedPlugin;
  /** Set when the run stops early: the plugin kept the agent waiting, or the deadline passed. */
  stopped?: Stop;
  private readonly stopping = new AbortController();
  /** Aborted when the run stops: sessions make no new call, polls stop waiting. */
  readonly signal = this.stopping.signal;
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    readonly target: Target,
    readonly tap: WireTap,
    readonly scanner: SecretScanner,
  ) {}

  /** Argo's client timing (30 s timeout, 5 attempts, 1-2-4-8 s backoff), the backoff scaled. */
  get timing(): RpcTiming {
    return { timeoutMs: 30_000, backoffMs: 1000 * this.target.timeScale, attempts: 5 };
  }

  get exchanges(): Exchange[] {
    return this.tap.exchanges;
  }

  get hasConfig(): boolean {
    return this.target.config !== undefined;
  }

  /** Stops the run (the first reason wins): later rules are not run, the one running fails with `reason`. */
  stop(reason: string, evidence: Evidence[] = []): void {
    if (this.stopped) return;
    this.stopped = { reason, evidence };
    this.stopping.abort();
  }

  /**
   * A new agent "workflow": its own 404 memory. A call whose every attempt ran into the client's timeout stops
   * the run: the agent fails that node, and every later call would keep the run waiting as long.
   */
  session(timing: RpcTiming = this.timing): AgentSession {
    const record = (o: CallOutcome): void => {
      this.outcomes.push(o);
      if (timedOut(o))
        this.stop(
          `the plugin kept the agent waiting: ${o.attempts.length} attempts at a call (${o.label}) each ran into the client's ${timing.timeoutMs / 1000} s timeout`,
          [callEvidence(o.label, o, this.mask)],
        );
    };
    return new AgentSession(this.tap, this.target.token, timing, record, this.signal);
  }

  workflow(label: string): WorkflowMeta {
    return newWorkflow(label);
  }

  /** The example body in the order Argo typically sends it (through the apiserver: keys sorted). */
  get ownConfig(): unknown {
    return sortedKeys(this.target.config ?? {});
  }

  ownBody(
    meta: WorkflowMeta,
    pluginBody: unknown = this.ownConfig,
    template?: Record<string, unknown>,
  ): string {
    return executeBody(meta, this.target.key, pluginBody, template);
  }

  /** A key that is certainly another plugin's. */
  get foreignKey(): string {
    return this.target.key === 'conformance-other' ? 'conformance-another' : 'conformance-other';
  }

  get authorization(): string {
    return `Bearer ${this.target.token}`;
  }

  async request(spec: RawRequest): Promise<RawExchange> {
    const exchange = await rawRequest(this.target.url, spec);
    this.raw.push(exchange);
    return exchange;
  }

  async bigBody(probe: BigBodyProbe): Promise<BigBodyResult> {
    const exchange = await bigBodyProbe(this.target.url, probe);
    this.raw.push(exchange);
    return exchange;
  }

  /** The upstream side-effect counter, or undefined without --count-url. */
  async count(): Promise<number | undefined> {
    return this.target.countUrl ? readCount(this.target.countUrl, this.target.countAuthorization) : undefined;
  }

  /** Side effects counted since `before` (after a short settle for late ones); undefined without --count-url. */
  async effectsSince(before: number | undefined): Promise<{ delta: number; evidence: Evidence } | undefined> {
    if (before === undefined) return undefined;
    await sleep(this.settleMs(500));
    const after = (await this.count())!;
    const note = `${after - before} (count ${before} → ${after})`;
    return { delta: after - before, evidence: { what: 'upstream side effects (--count-url)', note } };
  }

  poll(session: AgentSession, purpose: Purpose, label: string, body: string): Promise<PollOutcome> {
    return pollUntilFinal(session, purpose, label, body, {
      timeScale: this.target.timeScale,
      timeoutMs: this.target.pollTimeoutMs,
      signal: this.signal,
    });
  }

  /** How long the kit waits for late side effects or late replies: short, scaled. */
  settleMs(base = 2000): number {
    return Math.max(100, base * this.target.timeScale);
  }

  /** Text safe to show: every secret masked. */
  mask = (text: string): string => this.scanner.mask(text);

  /** The example config (or `{}`), polled until final: the reference several rules compare against. */
  baseline(): Promise<PollOutcome> {
    return this.once('baseline', async () => {
      const body = this.ownBody(this.workflow('baseline'));
      return this.poll(this.session(), 'own', 'baseline', body);
    });
  }

  /** Each bad body sent once, in a workflow of its own. */
  badConfigCalls(): Promise<BadConfigCall[]> {
    return this.once('bad-config', async () => {
      const calls: BadConfigCall[] = [];
      for (const bad of badConfigs(this.target.config)) {
        const body = this.ownBody(this.workflow('bad-config'), bad.body);
        calls.push({ ...bad, outcome: await this.session().call('bad-config', bad.label, body) });
      }
      return calls;
    });
  }

  private once<T>(name: string, fn: () => Promise<T>): Promise<T> {
    if (!this.memo.has(name)) this.memo.set(name, fn());
    return this.memo.get(name) as Promise<T>;
  }
}
