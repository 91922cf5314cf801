import type { RunContext } from './context.js';

/**
 * What a failure does in a real cluster:
 * - `breaks-workflow`: with Argo's agent, a node (this plugin's or another plugin's) fails, hangs, or runs
 *   its side effect twice, where a conformant plugin would have succeeded;
 * - `security`: workflows run, but the token boundary between the sidecars of the agent pod (which share
 *   its localhost) is weaker than it should be, or a credential leaks into what the workflow shows;
 * - `hygiene`: execution goes on, but the plugin is unkind to operate (unclear errors, no graceful stop).
 * Only `breaks-workflow` makes the kit exit 1 (any failure with --strict).
 */
export type Severity = 'breaks-workflow' | 'security' | 'hygiene';

export const SEVERITIES: readonly Severity[] = ['breaks-workflow', 'security', 'hygiene'];

export type RuleStatus = 'pass' | 'fail' | 'skip';

/** One observation behind a verdict: what was sent, and what came back. */
export interface Evidence {
  what: string;
  status?: number;
  /** Body excerpt (one line, secrets masked). */
  body?: string;
  ms?: number;
  note?: string;
}

export interface RuleVerdict {
  status: RuleStatus;
  verdict: string;
  evidence: Evidence[];
}

/**
 * When a rule runs: `start` (launch), `probe` (sends requests), `stop` (SIGTERM), `judge` (reads every
 * exchange recorded so far). Results are shown in catalogue order whatever the stage.
 */
export type Stage = 'start' | 'probe' | 'stop' | 'judge';

export interface Rule {
  id: string;
  name: string;
  severity: Severity;
  stage: Stage;
  /** The engine behaviour behind the rule, one line (details in docs/conformance.md). */
  why: string;
  run(ctx: RunContext): Promise<RuleVerdict>;
}

export interface RuleResult extends RuleVerdict {
  id: string;
  name: string;
  severity: Severity;
  why: string;
  ms: number;
}

export const pass = (verdict: string, evidence: Evidence[] = []): RuleVerdict => ({
  status: 'pass',
  verdict,
  evidence,
});
export const fail = (verdict: string, evidence: Evidence[] = []): RuleVerdict => ({
  status: 'fail',
  verdict,
  evidence,
});
export const skip = (verdict: string, evidence: Evidence[] = []): RuleVerdict => ({
  status: 'skip',
  verdict,
  evidence,
});
