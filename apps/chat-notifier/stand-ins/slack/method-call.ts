import type { SlackArgs } from './slack-args.js';
import { SlackFailure } from './slack-args.js';
import type { Bot, Channel, Team, Upload } from './slack-state.js';

/** What a Web API method handler gets: the arguments, the authenticated bot and the stand-in's shared state. */
export interface MethodCall {
  args: SlackArgs;
  bot: Bot;
  team: Team;
  uploads: Map<string, Upload>;
  /** Base URL of the stand-in (upload URLs point back to it). */
  baseUrl: string;
}

export type MethodHandler = (call: MethodCall) => Record<string, unknown>;

/** missing_scope unless the token has every one of `scopes`; `needed`/`provided` as Slack sends them. */
export function requireScopes(call: MethodCall, ...scopes: string[]): void {
  const missing = scopes.filter((s) => !call.bot.scopes.has(s));
  if (missing.length > 0) {
    throw new SlackFailure('missing_scope', {
      needed: missing.join(','),
      provided: [...call.bot.scopes].join(','),
    });
  }
}

/** The channel named by `arg` (an ID; names too where Slack allows them), as this bot can see it. */
export function visibleChannel(call: MethodCall, arg: string, options: { byName?: boolean } = {}): Channel {
  const ref = call.args.string(arg);
  if (!ref) throw new SlackFailure('channel_not_found');
  const channel = call.team.findChannel(ref, options.byName);
  // A private channel the bot is not in does not exist as far as the bot can tell.
  if (!channel || (channel.isPrivate && !channel.members.has(call.bot.userId)))
    throw new SlackFailure('channel_not_found');
  return channel;
}

/** A channel whose history this bot may read: the history scope of its kind and membership. */
export function readableChannel(call: MethodCall): Channel {
  const channel = visibleChannel(call, 'channel');
  requireScopes(call, channel.isPrivate ? 'groups:history' : 'channels:history');
  if (!channel.members.has(call.bot.userId)) throw new SlackFailure('not_in_channel');
  return channel;
}
