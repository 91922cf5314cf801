import type { ApprovalAnswer } from '../../approvals/approval-channel.js';

/** Reactions that approve (any skin tone): ✅ ✔️ ☑️ 👍. */
export const APPROVE_REACTIONS = [
  'white_check_mark',
  'heavy_check_mark',
  'ballot_box_with_check',
  '+1',
  'thumbsup',
];
/** Reactions that reject (any skin tone): ❌ ✖️ ⛔ 🚫 👎. */
export const REJECT_REACTIONS = [
  'x',
  'heavy_multiplication_x',
  'no_entry',
  'no_entry_sign',
  '-1',
  'thumbsdown',
];

/** The vote of a reaction by its name (`+1::skin-tone-3` is `+1`); undefined for any other reaction. */
export function reactionVote(name: string): ApprovalAnswer['vote'] | undefined {
  const base = name.replace(/::skin-tone-\d$/, '');
  if (APPROVE_REACTIONS.includes(base)) return 'approve';
  if (REJECT_REACTIONS.includes(base)) return 'reject';
  return undefined;
}

/**
 * A message's text as its author wrote it: Slack sends `&`, `<` and `>` of what people type as `&amp;`, `&lt;`
 * and `&gt;` (https://api.slack.com/reference/surfaces/formatting#escaping); `&amp;` last, so `&amp;lt;` stays `&lt;`.
 */
export function slackUnescape(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * Text that is data (a comment, a name), not markup, as Slack shows it as written: `&`, `<` and `>` escaped, so
 * `<!channel>` or `<https://evil|click>` is never a mention or a link; `&` first, so `&lt;` stays text.
 */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The vote of a thread reply: its first word is `approve` or `reject` (any case; a reason may follow). */
export function replyVote(text: string | undefined): ApprovalAnswer['vote'] | undefined {
  const first = /^\s*([a-z]+)\b/i.exec(text ?? '')?.[1]?.toLowerCase();
  if (first === 'approve' || first === 'approved') return 'approve';
  if (first === 'reject' || first === 'rejected') return 'reject';
  return undefined;
}
