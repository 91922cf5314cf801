import type { ApprovalAnswer } from './approval-channel.js';
import type { DeciderAnswer } from './decision.js';

export type Verdict = 'approved' | 'rejected' | 'open';

export interface Tally {
  verdict: Verdict;
  /** Who decided: the rejecters of a rejection, else the approvers counted so far (first answer first). */
  people: string[];
  /** Listed people who answered but are excluded (the workflow's creator); absent when none did. */
  ignored?: string[];
  /** The answer each of `people` is counted by: of their vote, the first with a comment, else their first. */
  answers: DeciderAnswer[];
  /** With requireComment: listed people whose answers have no comment, so none counts; absent when none. */
  uncommented?: string[];
  /** With rules: the approvers counted under each rule, in the rules' order (one person in every rule they are in). */
  byRule?: string[][];
}

/** A rule as the tally reads it: the users its approvers stand for, and how many of them must approve. */
export interface TallyRule {
  members: ReadonlySet<string>;
  minApprovals: number;
}

export interface TallyRules {
  /** The users the listed approvers stand for (groups expanded). */
  eligible: ReadonlySet<string>;
  /** The account that posted the request: its own answers never count. */
  author: string;
  /** Accounts whose answers never count (the workflow's creator, with excludeCreator). */
  excluded?: ReadonlySet<string>;
  minApprovals: number;
  /** Instead of `minApprovals`: every rule must be met (`eligible` holds the members of all of them). */
  rules?: readonly TallyRule[];
  /** Only an answer with a comment counts (requireComment). */
  requireComment?: boolean;
  /** Answers given after this time (ms) do not count; an answer of unknown time (0) does. */
  notAfter: number;
}

/**
 * The gate's rule: only listed people count (never a bot, never the request's author, never an excluded
 * account; with requireComment, never an answer without a comment); one reject from any of them rejects;
 * `minApprovals` distinct people approving approves. Answers are what the request carries now, so a reaction
 * taken back is no answer.
 */
export function tally(given: readonly ApprovalAnswer[], rules: TallyRules): Tally {
  const listed = given
    .filter((a) => !a.bot && a.user !== rules.author && rules.eligible.has(a.user))
    .filter((a) => a.at === 0 || a.at <= rules.notAfter)
    .sort((a, b) => a.at - b.at);
  const excluded = rules.excluded ?? new Set<string>();
  const kept = listed.filter((a) => !excluded.has(a.user));
  const counted = rules.requireComment ? kept.filter((a) => a.comment !== undefined) : kept;
  const people = (among: readonly ApprovalAnswer[]) => [...new Set(among.map((a) => a.user))];
  const ignored = people(listed.filter((a) => excluded.has(a.user)));
  const uncommented = people(kept).filter((user) => !counted.some((a) => a.user === user));
  const also = {
    ...(ignored.length > 0 && { ignored }),
    ...(uncommented.length > 0 && { uncommented }),
  };
  const distinct = (vote: ApprovalAnswer['vote']) => people(counted.filter((a) => a.vote === vote));
  const answersOf = (users: string[], vote: ApprovalAnswer['vote']): DeciderAnswer[] =>
    users.map((user) => {
      const theirs = counted.filter((a) => a.user === user && a.vote === vote);
      const { at, comment } = theirs.find((a) => a.comment !== undefined) ?? theirs[0]!;
      return { user, vote, at, ...(comment !== undefined && { comment }) };
    });
  const rejecters = distinct('reject');
  if (rejecters.length > 0)
    return { verdict: 'rejected', people: rejecters, answers: answersOf(rejecters, 'reject'), ...also };
  const approvers = distinct('approve');
  const answers = answersOf(approvers, 'approve');
  if (rules.rules) {
    const byRule = rules.rules.map((rule) => approvers.filter((user) => rule.members.has(user)));
    const met = byRule.every((people, i) => people.length >= rules.rules![i]!.minApprovals);
    return { verdict: met ? 'approved' : 'open', people: approvers, answers, ...also, byRule };
  }
  const verdict = approvers.length >= rules.minApprovals ? 'approved' : 'open';
  return { verdict, people: approvers, answers, ...also };
}
