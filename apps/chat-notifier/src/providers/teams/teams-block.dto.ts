import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, Matches, ValidateBy } from 'class-validator';
import { MessageContent } from '../../shared/message-content.dto.js';
import { EmptyAsAbsent, AdminChoice } from '../../shared/body-fields.js';

/** A Teams channel id as Teams shows it (_Get link to channel_, decoded): `19:…@thread.tacv2` (or `@thread.skype`). */
export const TEAMS_CHANNEL = /^19:[A-Za-z0-9_-]{1,200}@thread\.(?:tacv2|skype)$/;
/** A conversation the bot can post to: a channel, a channel thread (`…;messageid=<root>`) or a group chat. */
export const TEAMS_CONVERSATION =
  /^19:[A-Za-z0-9_-]{1,200}@thread\.(?:tacv2|skype|v2)(?:;messageid=[0-9]{1,20})?$/;
/** A message (activity) id in a channel: the `id` or `thread` output of an earlier step. */
export const TEAMS_ACTIVITY = /^[0-9]{1,20}$/;

/** People as their sign-in addresses (UPN), a list or a comma/space separated string. */
const AddressList = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (value === '' || value === null) return undefined;
    const list: unknown = typeof value === 'string' ? value.split(/[\s,]+/).filter((v) => v !== '') : value;
    return Array.isArray(list)
      ? list.map((m: unknown) => (typeof m === 'string' ? m.trim().replace(/^@/, '') : m))
      : list;
  });

const ActivityId = (): PropertyDecorator =>
  Matches(TEAMS_ACTIVITY, {
    message: 'must be a Teams message id (the id or thread output of an earlier step)',
  });

/** The bot fields (`thread`, `update`) need a bot destination (`channel` or `conversation`), one of them. */
function IsBotTarget(field: 'thread' | 'update' | 'conversation'): PropertyDecorator {
  const problem = (c: TeamsConfig): string | undefined => {
    if (field === 'conversation')
      return c.channel !== undefined ? 'give channel or conversation, not both' : undefined;
    if (c.channel === undefined && c.conversation === undefined)
      return `needs channel (or conversation): ${field === 'thread' ? 'replies' : 'edits'} go through the bot, not a webhook`;
    if (field === 'thread' && c.conversation !== undefined)
      return 'a conversation output already names its thread; leave thread out';
    return undefined;
  };
  return ValidateBy({
    name: `isBotTarget_${field}`,
    validator: {
      validate: (_value: unknown, args) => problem(args?.object as TeamsConfig) === undefined,
      defaultMessage: (args) => problem(args?.object as TeamsConfig) ?? 'is invalid',
    },
  });
}

/**
 * `notify: {teams: {...}}`: an Adaptive Card, through a Teams Workflows webhook (`webhook`, or the default
 * one) or, with `channel` or `conversation`, through the admin's bot (Bot Framework connector): a new thread,
 * a reply (`thread`) or an edit in place (`update`), with ids as outputs. A webhook answers 202 without the
 * message's id, so it has no replies or edits (see docs).
 */
export class TeamsConfig extends MessageContent {
  /** People to @mention, by sign-in address (alice@example.com). */
  @AddressList()
  @IsOptional()
  @IsEmail({}, { each: true, message: 'must be sign-in addresses such as alice@example.com (each)' })
  mentions?: string[];

  /** A webhook configured by the admin (TEAMS_<NAME>_WEBHOOK_URL); the default one when absent. */
  @AdminChoice('webhook', 'alerts')
  webhook?: string;

  /** Bot mode: the channel (19:…@thread.tacv2) to start a thread in, or whose thread `thread` names. */
  @EmptyAsAbsent()
  @IsOptional()
  @Matches(TEAMS_CHANNEL, {
    message: 'must be a Teams channel id such as 19:abc…@thread.tacv2 (from the channel link, decoded)',
  })
  channel?: string;

  /** Bot mode: a conversation output of an earlier step (19:…@thread.tacv2;messageid=…): post into it. */
  @EmptyAsAbsent()
  @IsOptional()
  @Matches(TEAMS_CONVERSATION, {
    message: 'must be a Teams conversation id (the conversation output of an earlier step)',
  })
  @IsBotTarget('conversation')
  conversation?: string;

  /** Bot mode: reply in the thread of this message (the `thread` or `id` output of an earlier step). */
  @EmptyAsAbsent()
  @IsOptional()
  @ActivityId()
  @IsBotTarget('thread')
  thread?: string;

  /** Bot mode: edit this message of the bot in place (the `id` output of an earlier step). */
  @EmptyAsAbsent()
  @IsOptional()
  @ActivityId()
  @IsBotTarget('update')
  update?: string;

  /** Whether this body goes through the bot (a channel or a conversation) rather than a webhook. */
  viaBot(): boolean {
    return this.channel !== undefined || this.conversation !== undefined;
  }
}
