import { createHash } from 'node:crypto';
import { applyDecorators } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import { clip } from '@app/plugin-kit/upstream/error-detail.js';
import { NameList, type MentionRules } from './body-fields.js';
import type { ApprovalAnswer } from '../approvals/approval-channel.js';

// What the approval readers of Mattermost, Discord and GitHub share: their blocks' `text` and `approvers`
// fields, how a reply or a reaction becomes a vote, and how a request shows its decision.

/** The request's text: required, at most `max` characters (the provider's limit, less room for the decision). */
export const ApprovalText = (max: number): PropertyDecorator =>
  applyDecorators(IsString(), Length(1, max, { message: `must be 1 to ${max} characters` }));

/** A required list of approvers (or a comma/space separated string), each normalised and valid, 1 to 50 of them. */
export const Approvers = (rules: MentionRules): PropertyDecorator => NameList(rules, 1);

export type Vote = ApprovalAnswer['vote'];

/**
 * The vote of a reply: its first word, case-insensitive (`approve`, `Reject: wrong version`), when it is one of
 * `words`; anything else is a comment and no vote.
 */
export function replyVote(text: string, words: Readonly<Record<Vote, string>>): Vote | undefined {
  const first = /^\s*(\S+)/
    .exec(text)?.[1]
    ?.toLowerCase()
    .replace(/[.!,:;]+$/, '');
  if (first === words.approve) return 'approve';
  if (first === words.reject) return 'reject';
  return undefined;
}

/** The text's first line, cut to `limit` characters (ending with …): a ticket's title or summary. */
export function firstLine(text: string, limit: number): string {
  const first = text.trim().split('\n', 1)[0]!.trim();
  return clip(first, limit);
}

/** The SHA-256 of a request's text, kept in its ref: a later read compares what it finds with what was posted. */
export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The request's message with the decision appended once (a repeated conclude changes nothing). */
export function withDecision(message: string, decision: string): string {
  return message.endsWith(decision) ? message : `${message}\n\n${decision}`;
}
