import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, IsString, Matches } from 'class-validator';
import { MessageContent } from './message-content.dto.js';
import { EmptyAsAbsent } from './slack-fields.js';

/** People as their sign-in addresses (UPN), a list or a comma/space separated string. */
const AddressList = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (value === '' || value === null) return undefined;
    const list: unknown = typeof value === 'string' ? value.split(/[\s,]+/).filter((v) => v !== '') : value;
    return Array.isArray(list)
      ? list.map((m: unknown) => (typeof m === 'string' ? m.trim().replace(/^@/, '') : m))
      : list;
  });

/**
 * `notify: {teams: {...}}`: an Adaptive Card posted through a Teams Workflows webhook. Such a webhook
 * answers 202 without the message's id, so there are no thread replies or edits (see docs).
 */
export class TeamsConfig extends MessageContent {
  /** People to @mention, by sign-in address (alice@example.com). */
  @AddressList()
  @IsOptional()
  @IsEmail({}, { each: true, message: 'must be sign-in addresses such as alice@example.com (each)' })
  mentions?: string[];

  /** A webhook configured by the admin (TEAMS_WEBHOOK_URL_<NAME>); the default one when absent. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_]{1,40}$/, { message: 'must be a webhook name such as alerts (letters, digits, _)' })
  webhook?: string;
}
