import { Inject, Injectable } from '@nestjs/common';
import { formatDuration, parseDuration, type ExecuteTemplateReply } from '@app/contract';
import {
  exactlyOneProviderBlock,
  failed,
  PluginConfigError,
  running,
  succeeded,
  UpstreamError,
  type ExecutionContext,
} from '@app/plugin-kit';
import type { ApprovalBlock, ApprovalChannel, ApprovalChannels, PostedRequest } from './approval-channel.js';
import { answerLines, decisionOfLine, deletedLine } from './concluded-decision.js';
import type { DeciderAnswer, Decision } from './decision.js';
import { DEFAULT_TIMEOUT, GATE_FEATURES, type ApproveSettings } from './approve-config.dto.js';
import { creatorName, workflowCreator } from './workflow-creator.js';
import { approvalBudget, PollSchedule } from './poll-schedule.js';
import { tally } from './tally.js';
import { NotifierEnv } from '../config/notifier.env.js';
import { BodyFieldError, inBlock } from '../shared/block-errors.js';

/** Each approval provider's channels by key, in the order of the table. */
export const APPROVAL_CHANNELS = Symbol.for('chat-notifier.approval-channels');
export type ApprovalChannelsByKey = ReadonlyMap<string, ApprovalChannels>;

/** What the gate keeps between calls (the kit's ledger state of the execution). */
export interface GateState {
  /**
   * When this process first saw the gate: the timeout counts from here, but for a request found again (see
   * timeoutStart).
   */
  openedAt: number;
  posted?: PostedRequest;
  /** The request's text as posted: the decision is added below it. */
  text?: string;
  decision?: Decision;
  /** The request shows the decision (or cannot: it is gone). */
  concluded?: boolean;
  /** With excludeCreator: the chat accounts of the workflow's creator, found before the request was posted. */
  excluded?: string[];
  /**
   * A request found again has been read once: a decision it showed would have been taken over. Until then the
   * gate decides nothing of its own (no timeout): the request may already say what was decided.
   */
  checked?: boolean;
}

export type ApproveBody = ApproveSettings & Record<string, unknown>;
type Ctx = ExecutionContext<ApproveBody, GateState>;

/**
 * An approval gate: posts the request once, then on each call reads its answers and replies Running with a
 * requeue from the poll schedule until listed approvers decide or the timeout passes. The decision is taken
 * once, kept in the execution's state and answered identically on every later call (a Succeeded one is also
 * replayed by the kit's ledger without reaching here).
 */
@Injectable()
export class ApprovalGate {
  constructor(
    @Inject(APPROVAL_CHANNELS) private readonly channels: ApprovalChannelsByKey,
    private readonly schedule: PollSchedule,
    private readonly env: NotifierEnv,
  ) {}

  async execute(ctx: Ctx): Promise<ExecuteTemplateReply> {
    const key = exactlyOneProviderBlock(ctx.config, [...this.channels.keys()]);
    const { supports } = this.channels.get(key)!;
    const asked = GATE_FEATURES.find((field) => ctx.config[field] && !supports.has(field));
    if (asked)
      throw new PluginConfigError(`${asked}: not supported by ${key} approval gates (docs/approvals.md)`);
    if (ctx.config.rules && ctx.config.minApprovals !== undefined)
      throw new PluginConfigError('minApprovals: with rules, each rule has its own minApprovals');
    return inBlock(key, () => this.gate(ctx, key));
  }

  private async gate(ctx: Ctx, key: string): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const block = config[key] as ApprovalBlock;
    const state: GateState = { ...(ctx.state.get() ?? { openedAt: Date.now() }) };
    const save = async (patch: Partial<GateState>) => {
      Object.assign(state, patch);
      await ctx.state.set({ ...state });
    };
    if (!ctx.state.get()) await save({});
    const channel = this.channels.get(key)!.channelFor(block, {
      namespace: ctx.workflow.namespace,
      scopes: this.env.scopes,
      logger: ctx.logger,
    });
    if (state.decision) return this.answer(ctx, channel, state, save);
    const budget = approvalBudget(this.env, channel.budgetVariable, channel.callsPerMinute);

    const timeoutMs = parseDuration(config.timeout ?? DEFAULT_TIMEOUT);
    let deadline = timeoutStart(state) + timeoutMs;
    // Every call to the upstream waits for room in its budget (shared by every gate of this sidecar on it).
    const granted = () => this.schedule.take(channel.upstream, channel.callsPerRead, budget);
    const noSlot = `waiting for a read slot (${channel.upstream}: ${budget} calls a minute)`;
    if (!state.posted) {
      if (!granted()) return this.wait(ctx, channel, state, deadline, noSlot);
      // Approvers who stand for nobody (an unknown or empty group) fail the gate before anything is posted.
      if ((await channel.members(block.approvers, ctx.signal)).size === 0)
        throw new PluginConfigError('approvers: stand for no one (every group listed is empty)');
      await this.ruleMembers(ctx, channel);
      if (config.excludeCreator && !state.excluded) {
        const excluded = await this.creatorAccounts(ctx, channel);
        if (typeof excluded === 'string')
          return this.decide(ctx, channel, state, save, {
            decision: 'creator-unknown',
            succeeded: false,
            approvers: [],
            decidedAt: new Date().toISOString(),
            url: '',
            message: `excludeCreator: ${excluded}; the gate fails closed`,
          });
        await save({ excluded });
      }
      const text = requestText(block, config, channel, deadline, state.excluded);
      const posted = await channel.post({ text, marker: ctx.key }, ctx.signal);
      // A request found again after a restart keeps the deadline it was posted with (and shows the decision
      // below a text that says so).
      const since = timeoutStart({ ...state, posted }) + timeoutMs;
      const textThen = requestText(block, config, channel, since, state.excluded);
      await save({ posted, text: since === deadline ? text : textThen });
      deadline = since;
      ctx.logger.info(
        { url: posted.url },
        posted.found ? 'approval request found again' : 'approval requested',
      );
      // A request found again is read at once: it may already show the decision.
      if (!posted.found) return this.wait(ctx, channel, state, deadline, 'requested');
    }

    const posted = state.posted!;
    const mayTimeOut = !posted.found || state.checked === true;
    if (!granted()) {
      if (mayTimeOut && Date.now() >= deadline)
        return this.decideTimeout(ctx, channel, state, save, config, timeoutMs);
      return this.wait(ctx, channel, state, deadline, noSlot);
    }
    let found;
    let eligible: Set<string>;
    let ruleSets: Array<Set<string>> | undefined;
    try {
      found = await channel.read(posted, ctx.signal);
      eligible = new Set();
      if (found.kind === 'present') {
        eligible = await channel.members(block.approvers, ctx.signal);
        ruleSets = await this.ruleMembers(ctx, channel);
        for (const members of ruleSets ?? []) for (const user of members) eligible.add(user);
      }
    } catch (err) {
      if (!(err instanceof UpstreamError) || !err.transient) throw err;
      // Reading is repeated on the next poll; only the timeout ends a gate whose upstream keeps failing.
      if (err.retryAfterMs) this.schedule.pause(channel.upstream, err.retryAfterMs);
      if (mayTimeOut && Date.now() >= deadline)
        return this.decideTimeout(ctx, channel, state, save, config, timeoutMs);
      ctx.logger.warn({ status: err.status }, `approval: reading the answers failed: ${err.message}`);
      return this.wait(ctx, channel, state, deadline, `could not read the answers (${err.message})`);
    }
    if (found.kind === 'concluded') {
      // Decided before this process knew the gate: that decision, as the request shows it, is the answer.
      const earlier = decisionOfLine(found.line, posted.url, channel.unescapeData)!;
      await save({ decision: earlier, concluded: true });
      this.schedule.close(channel.upstream, ctx.key);
      ctx.logger.info({ decision: earlier.decision }, 'approval already decided: the request shows it');
      return this.answer(ctx, channel, state, save);
    }
    if (posted.found && !state.checked) await save({ checked: true });
    const now = new Date();
    if (found.kind === 'deleted')
      return this.decide(ctx, channel, state, save, {
        decision: 'deleted',
        succeeded: false,
        approvers: [],
        decidedAt: now.toISOString(),
        url: posted.url,
        message: `the approval request was deleted before a decision; failing safely: ${posted.url}`,
        conclusion: deletedLine(posted.url, now.toISOString()),
      });
    if (found.kind === 'cancelled')
      return this.decide(ctx, channel, state, save, {
        decision: 'cancelled',
        succeeded: false,
        approvers: [],
        decidedAt: now.toISOString(),
        url: posted.url,
        message: `the approval request was closed without a decision (${found.detail}); failing safely: ${posted.url}`,
      });
    if (found.kind === 'tampered')
      return this.decide(ctx, channel, state, save, {
        decision: 'tampered',
        succeeded: false,
        approvers: [],
        decidedAt: now.toISOString(),
        url: posted.url,
        message: `the approval request was changed by someone else (${found.detail}); failing safely: ${posted.url}`,
        conclusion: `:warning: Changed by someone else; the gate failed safely at ${now.toISOString()}`,
      });

    const minApprovals = config.minApprovals ?? 1;
    const result = tally(found.answers, {
      eligible,
      author: posted.author,
      excluded: new Set(state.excluded ?? []),
      minApprovals,
      rules: ruleSets?.map((members, i) => ({ members, minApprovals: config.rules![i]!.minApprovals ?? 1 })),
      notAfter: deadline,
      requireComment: config.requireComment === true,
    });
    if (result.verdict !== 'open') {
      const approved = result.verdict === 'approved';
      const who = result.people.map((u) => channel.mention(u)).join(', ');
      const at = now.toISOString();
      const byRule = approved ? result.byRule : undefined;
      const underRules = byRule
        ? `\nBy rule: ${byRule.map((people) => people.map((u) => channel.mention(u)).join(', ')).join(' | ')}`
        : '';
      return this.decide(ctx, channel, state, save, {
        decision: result.verdict,
        succeeded: approved,
        approvers: result.people,
        decidedAt: at,
        url: posted.url,
        message: `${result.verdict} by ${result.people.join(', ')} at ${at}: ${posted.url}`,
        conclusion: `${approved ? ':white_check_mark: Approved' : ':x: Rejected'} by ${who} at ${at}${answerLines(result.answers, (u) => channel.mention(u), channel.escapeData)}${underRules}`,
        answers: result.answers,
        ...(byRule && { byRule }),
      });
    }
    if (now.getTime() >= deadline) return this.decideTimeout(ctx, channel, state, save, config, timeoutMs);
    const so = result.people.length > 0 ? ` (so far: ${result.people.join(', ')})` : '';
    const ignored = result.ignored
      ? ` (not counted: ${result.ignored.join(', ')}, the workflow's creator)`
      : '';
    const counts = result.byRule
      ? result.byRule
          .map((people, i) => `rule ${i + 1}: ${people.length} of ${config.rules![i]!.minApprovals ?? 1}`)
          .join(', ')
      : `${result.people.length} of ${minApprovals} approvals`;
    const uncommented = result.uncommented
      ? ` (not counted: ${result.uncommented.join(', ')}, no comment after the keyword; requireComment)`
      : '';
    const progress = `${counts}${so}${ignored}${uncommented}`;
    return this.wait(ctx, channel, state, deadline, progress);
  }

  /** The users each rule's approvers stand for; a rule that stands for nobody is a config error naming it. */
  private async ruleMembers(ctx: Ctx, channel: ApprovalChannel): Promise<Array<Set<string>> | undefined> {
    const rules = ctx.config.rules;
    if (!rules) return undefined;
    const sets: Array<Set<string>> = [];
    for (const [i, rule] of rules.entries()) {
      try {
        const members = await channel.members(rule.approvers, ctx.signal);
        if (members.size === 0) throw new PluginConfigError('approvers: stand for no one');
        sets.push(members);
      } catch (err) {
        if (!(err instanceof PluginConfigError)) throw err;
        throw new BodyFieldError(`rules.${i}.${err.message}`);
      }
    }
    return sets;
  }

  /** The creator's chat accounts, or why they cannot be known (then the gate fails closed). */
  private async creatorAccounts(ctx: Ctx, channel: ApprovalChannel): Promise<string[] | string> {
    const creator = workflowCreator(ctx.workflow.labels, ctx.config.creator);
    if (!creator)
      return ctx.workflow.labels
        ? "the workflow's creator is not known: the Workflow has no creator labels"
        : "the workflow's creator is not known: the agent sends no creator labels and the body names no creator";
    const accounts = await channel.creatorAccounts!(creator, ctx.signal);
    if (accounts.size === 0)
      return `the workflow's creator (${creatorName(creator)}) has no account here that the gate can find`;
    return [...accounts];
  }

  private decideTimeout(
    ctx: Ctx,
    channel: ApprovalChannel,
    state: GateState,
    save: (patch: Partial<GateState>) => Promise<void>,
    config: ApproveBody,
    timeoutMs: number,
  ): Promise<ExecuteTemplateReply> {
    const onTimeout = config.onTimeout ?? 'fail';
    const at = new Date().toISOString();
    const within = `no decision within ${formatDuration(timeoutMs)}`;
    const outcome = {
      fail: 'the gate failed',
      approve: 'approved by onTimeout',
      reject: 'rejected by onTimeout',
    };
    return this.decide(ctx, channel, state, save, {
      decision: onTimeout === 'approve' ? 'approved' : onTimeout === 'reject' ? 'rejected' : 'timeout',
      succeeded: onTimeout === 'approve',
      approvers: [],
      decidedAt: at,
      url: state.posted?.url ?? '',
      message: `${within}; ${outcome[onTimeout]}: ${state.posted?.url ?? ''}`,
      conclusion: `:hourglass: No decision within ${formatDuration(timeoutMs)}; ${outcome[onTimeout]} at ${at}`,
    });
  }

  private async decide(
    ctx: Ctx,
    channel: ApprovalChannel,
    state: GateState,
    save: (patch: Partial<GateState>) => Promise<void>,
    decision: Decision,
  ): Promise<ExecuteTemplateReply> {
    await save({ decision, concluded: decision.conclusion === undefined });
    this.schedule.close(channel.upstream, ctx.key);
    ctx.logger.info({ decision: decision.decision, approvers: decision.approvers }, 'approval decided');
    return this.answer(ctx, channel, state, save);
  }

  /** The decision's reply, once the request shows it (a failed edit is tried again on the next call). */
  private async answer(
    ctx: Ctx,
    channel: ApprovalChannel,
    state: GateState,
    save: (patch: Partial<GateState>) => Promise<void>,
  ): Promise<ExecuteTemplateReply> {
    const decision = state.decision!;
    if (!state.concluded && state.posted && decision.conclusion) {
      try {
        // A deleted request cannot show its decision, and a restarted gate would find nothing and post again:
        // a record of it goes in its place, found again as the gate's own post with its marker.
        if (decision.decision === 'deleted' && state.posted.url === decision.url) {
          const text = `The approval request of this step was deleted before a decision: ${decision.url}`;
          const record = await channel.post(
            { text, marker: ctx.key, dedup: `${ctx.key}/deleted` },
            ctx.signal,
          );
          await save({ posted: record, text });
        }
        const conclusion = { decision: decision.conclusion, requestText: state.text ?? '' };
        await channel.conclude(state.posted, conclusion, ctx.signal);
      } catch (err) {
        if (err instanceof UpstreamError && err.transient)
          return running(`${decision.decision}; showing it on the request failed (${err.message})`, 5000);
        // The decision stands whether or not the request can show it.
        ctx.logger.warn(
          {},
          `approval: could not show the decision on the request: ${(err as Error).message}`,
        );
      }
      await save({ concluded: true });
    }
    const outputs = {
      decision: decision.decision,
      approvers: decision.approvers.join(','),
      decidedAt: decision.decidedAt,
      url: decision.url,
      comment: (decision.answers ?? [])
        .flatMap((a) => (a.comment === undefined ? [] : [a.comment]))
        .join('\n'),
      decisions: (decision.answers ?? []).map(decisionJson).join('\n'),
      ...(ctx.config.rules && {
        ruleApprovers: (decision.byRule ?? []).map((people) => people.join(',')).join(';'),
      }),
    };
    return decision.succeeded ? succeeded(outputs, decision.message) : failed(decision.message, outputs);
  }

  private wait(
    ctx: Ctx,
    channel: ApprovalChannel,
    state: GateState,
    deadline: number,
    progress: string,
  ): ExecuteTemplateReply {
    const budget = approvalBudget(this.env, channel.budgetVariable, channel.callsPerMinute);
    const requeue = this.schedule.next(channel.upstream, ctx.key, channel.callsPerRead, budget);
    // Looking again at the deadline is enough to time out on time.
    const untilDeadline = Math.max(1000, deadline - Date.now());
    return running(
      `waiting for approval: ${progress}: ${state.posted?.url ?? ''}`,
      Math.min(requeue, untilDeadline),
    );
  }
}

/** One decider's answer as a line of the `decisions` output: `{"user","vote","at","comment"}`. */
function decisionJson(answer: DeciderAnswer): string {
  const at = answer.at > 0 ? new Date(answer.at).toISOString() : null;
  return JSON.stringify({ user: answer.user, vote: answer.vote, at, comment: answer.comment ?? null });
}

/**
 * Where the gate's timeout starts: when this process first saw it, or, for a request found again (posted before
 * a sidecar restart, whose in-memory ledger and so `openedAt` are new; or by another replica), the post's time
 * as the provider recorded it: the deadline stays the one the request was posted with.
 */
function timeoutStart(state: GateState): number {
  const posted = state.posted;
  // A provider's time that cannot be read never moves the deadline (NaN would keep the gate open for good).
  return posted?.found && Number.isFinite(posted.postedAt)
    ? Math.min(state.openedAt, posted.postedAt)
    : state.openedAt;
}

/** The request as posted: the author's text, who may answer and how, and until when. */
export function requestText(
  block: ApprovalBlock,
  config: ApproveSettings,
  channel: ApprovalChannel,
  deadline?: number,
  excluded?: readonly string[],
): string {
  const needsOf = (min: number) => (min === 1 ? 'one approval' : `${min} approvals`);
  const whoOf = (approvers: string[]) => approvers.map((a) => channel.mention(a)).join(', ');
  const from = config.rules
    ? config.rules
        .map((rule) => `${needsOf(rule.minApprovals ?? 1)} from ${whoOf(rule.approvers)}`)
        .join(' and ')
    : `${needsOf(config.minApprovals ?? 1)} from ${whoOf(block.approvers)}`;
  const until = deadline === undefined ? '' : `, until ${new Date(deadline).toISOString()}`;
  const creator = excluded?.length
    ? ` The workflow's creator (${excluded.map((u) => channel.mention(u)).join(', ')}) cannot approve it.`
    : '';
  const reason = config.requireComment
    ? ' An answer counts only with a reason after its keyword (`approve: ship it`).'
    : '';
  return `${block.text}\n\nNeeds ${from}${until}.${creator} ${channel.howToAnswer}${reason}`;
}
