// The decision a concluded request shows, read back by a gate that lost its state (a sidecar restart, another
// replica): the line the gate wrote under the request when it decided. A decision, once made, stands whatever
// the answers are now, so a gate that finds such a line answers it instead of counting again.
import type { DeciderAnswer, Decision } from './decision.js';

/** The lines the gate concludes a request with (approval-gate.ts writes them). */
const DECIDED =
  /^:(white_check_mark|x): (Approved|Rejected) by (.+) at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)((?:\n- .+)*)(?:\nBy rule: (.+))?$/;
const TIMED_OUT =
  /^:hourglass: No decision within (\S+); (the gate failed|approved by onTimeout|rejected by onTimeout) at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)$/;
const TAMPERED =
  /^:warning: Changed by someone else; the gate failed safely at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)$/;
/** The request's link as a chat may show it back: bare, or in Slack's `<url>` / `<url|label>`. */
const DELETED =
  /^:wastebasket: Deleted before a decision: <?([^\s<>|]+)(?:\|[^>]*)?>?; the gate failed safely at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)$/;

/** The line of the record a gate posts in place of its deleted request (the request's link, the time). */
export function deletedLine(url: string, at: string): string {
  return `:wastebasket: Deleted before a decision: ${url}; the gate failed safely at ${at}`;
}

/** One decider's answer under the decision (answerLines). */
const ANSWER =
  /^- (\S+) (approve|reject) at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z|an unknown time)(?:: (.+))?$/;
const UNKNOWN_TIME = 'an unknown time';

/** A mention as the providers write it (`<@U0123>`, `@login`, a bare id) → the user id. */
const unmention = (mention: string) => mention.replace(/^<@|>$/g, '').replace(/^@/, '');

/**
 * The lines under a decision that say each decider's answer, when, and why (`- <@U0BOB00001> reject at
 * 2026-06-07T10:00:00.000Z: not on Friday`): what a gate that finds the request again needs for the same
 * outputs. A comment is one line (commentAfterKeyword), so it cannot pass for another line.
 */
export function answerLines(
  answers: readonly DeciderAnswer[],
  mention: (user: string) => string,
  escape: (data: string) => string = (data) => data,
): string {
  return answers
    .map((a) => {
      const at = a.at > 0 ? new Date(a.at).toISOString() : UNKNOWN_TIME;
      return `\n- ${mention(a.user)} ${a.vote} at ${at}${a.comment !== undefined ? `: ${escape(a.comment)}` : ''}`;
    })
    .join('');
}

/** The answers of the lines under a decision; undefined when one is not an answer line. */
function answersOfLines(lines: string, unescape: (text: string) => string): DeciderAnswer[] | undefined {
  const answers: DeciderAnswer[] = [];
  for (const line of lines.split('\n').slice(1)) {
    const [, user, vote, at, comment] = ANSWER.exec(line) ?? [];
    if (!user) return undefined;
    answers.push({
      user: unmention(user),
      vote: vote as DeciderAnswer['vote'],
      at: at === UNKNOWN_TIME ? 0 : Date.parse(at!),
      ...(comment !== undefined && { comment: unescape(comment) }),
    });
  }
  return answers;
}

/**
 * The decision line a request's text ends with (its last paragraph), or undefined. A request not yet concluded
 * ends with the sentence on how to answer, so the author's own text can never pass for a decision.
 */
export function conclusionLine(text: string): string | undefined {
  const at = text.lastIndexOf('\n\n');
  if (at < 0) return undefined;
  const last = text.slice(at + 2);
  return decisionOfLine(last, '') ? last : undefined;
}

/**
 * The decision `line` (one conclusionLine found) stands for, with the outputs the gate answered then; `unescape`
 * gives back a comment the channel escaped when it wrote the line (ApprovalChannel.escapeData).
 */
export function decisionOfLine(
  line: string,
  url: string,
  unescape: (text: string) => string = (text) => text,
): Decision | undefined {
  const decided = DECIDED.exec(line);
  if (decided) {
    const approved = decided[2] === 'Approved';
    const people = decided[3]!.split(', ').map(unmention);
    const at = decided[4]!;
    const answers = answersOfLines(decided[5]!, unescape);
    if (!answers) return undefined;
    const byRule = decided[6]
      ?.split(' | ')
      .map((rule) => (rule === '' ? [] : rule.split(', ').map(unmention)));
    const verdict = approved ? 'approved' : 'rejected';
    return {
      decision: verdict,
      succeeded: approved,
      approvers: people,
      decidedAt: at,
      url,
      message: `${verdict} by ${people.join(', ')} at ${at}: ${url}`,
      conclusion: line,
      ...(answers.length > 0 && { answers }),
      ...(byRule && { byRule }),
    };
  }
  const timedOut = TIMED_OUT.exec(line);
  if (timedOut) {
    const outcome = timedOut[2]!;
    return {
      decision:
        outcome === 'approved by onTimeout'
          ? 'approved'
          : outcome === 'rejected by onTimeout'
            ? 'rejected'
            : 'timeout',
      succeeded: outcome === 'approved by onTimeout',
      approvers: [],
      decidedAt: timedOut[3]!,
      url,
      message: `no decision within ${timedOut[1]}; ${outcome}: ${url}`,
      conclusion: line,
    };
  }
  const deleted = DELETED.exec(line);
  if (deleted)
    // The record's own link is not the request's: the line names the request the decision was about.
    return {
      decision: 'deleted',
      succeeded: false,
      approvers: [],
      decidedAt: deleted[2]!,
      url: deleted[1]!,
      message: `the approval request was deleted before a decision; failing safely: ${deleted[1]!}`,
      conclusion: line,
    };
  const tampered = TAMPERED.exec(line);
  if (tampered)
    return {
      decision: 'tampered',
      succeeded: false,
      approvers: [],
      decidedAt: tampered[1]!,
      url,
      message: `the approval request was changed by someone else; failing safely: ${url}`,
      conclusion: line,
    };
  return undefined;
}
