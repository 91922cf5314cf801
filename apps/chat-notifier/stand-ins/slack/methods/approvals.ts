import type { MethodHandler } from '../method-call.js';
import { requireScopes, visibleChannel } from '../method-call.js';
import { SlackFailure } from '../slack-args.js';

/**
 * reactions.get (https://docs.slack.dev/reference/methods/reactions.get): a message with its reactions, each
 * `{name, users, count}`; `users` is cut at 50 unless `full` is true, `count` is the real number. Needs
 * reactions:read. A deleted message (a tombstone too) is message_not_found.
 */
export const reactionsGet: MethodHandler = (call) => {
  requireScopes(call, 'reactions:read');
  if (!call.args.has('channel') || !call.args.has('timestamp')) throw new SlackFailure('no_item_specified');
  const channel = visibleChannel(call, 'channel');
  const ts = call.args.string('timestamp')!;
  if (!/^\d{9,11}\.\d{1,6}$/.test(ts)) throw new SlackFailure('bad_timestamp');
  const message = channel.messages.find((m) => m.ts === ts);
  if (!message || message.subtype === 'tombstone') throw new SlackFailure('message_not_found');
  const full = call.args.bool('full');
  const { origin: _o, edits: _e, metadata: _m, reactions, ...visible } = message;
  return {
    type: 'message',
    channel: channel.id,
    message: {
      ...visible,
      ...(reactions &&
        reactions.length > 0 && {
          reactions: reactions.map((r) => ({
            name: r.name,
            users: full ? [...r.users] : r.users.slice(0, 50),
            count: r.users.length,
          })),
        }),
    },
  };
};

function group(call: Parameters<MethodHandler>[0], id: string | undefined) {
  const found = id ? call.team.userGroups.get(id) : undefined;
  if (!found) throw new SlackFailure('no_such_subteam');
  return found;
}

/** usergroups.list: the workspace's user groups (`include_users` adds their members). Needs usergroups:read. */
export const usergroupsList: MethodHandler = (call) => {
  requireScopes(call, 'usergroups:read');
  const withUsers = call.args.bool('include_users');
  return {
    usergroups: [...call.team.userGroups.values()].map((g) => ({
      id: g.id,
      team_id: call.team.id,
      is_usergroup: true,
      name: g.handle,
      handle: g.handle,
      user_count: g.users.length,
      ...(withUsers && { users: [...g.users] }),
    })),
  };
};

/** usergroups.users.list: the user IDs of one group; no_such_subteam for an unknown ID. Needs usergroups:read. */
export const usergroupsUsersList: MethodHandler = (call) => {
  requireScopes(call, 'usergroups:read');
  if (!call.args.has('usergroup')) throw new SlackFailure('invalid_arguments');
  return { users: [...group(call, call.args.string('usergroup')).users] };
};

/** users.info: one user (`is_bot` for a bot user); user_not_found otherwise. Needs users:read. */
export const usersInfo: MethodHandler = (call) => {
  requireScopes(call, 'users:read');
  const id = call.args.string('user');
  const bot = id === call.bot.userId;
  const user = id ? call.team.users.get(id) : undefined;
  if (!user && !bot) throw new SlackFailure('user_not_found');
  return {
    user: {
      id,
      team_id: call.team.id,
      name: user?.name ?? 'argo-bot',
      deleted: false,
      is_bot: bot || (user?.isBot ?? false),
      is_app_user: false,
    },
  };
};

/**
 * users.lookupByEmail (https://docs.slack.dev/reference/methods/users.lookupByEmail): the user whose profile has
 * `email` (case-insensitive), users_not_found otherwise. Needs users:read.email.
 */
export const usersLookupByEmail: MethodHandler = (call) => {
  requireScopes(call, 'users:read.email');
  const email = call.args.string('email');
  if (!email) throw new SlackFailure('invalid_arguments');
  const user = [...call.team.users.values()].find((u) => u.email?.toLowerCase() === email.toLowerCase());
  if (!user) throw new SlackFailure('users_not_found');
  return {
    user: {
      id: user.id,
      team_id: call.team.id,
      name: user.name,
      deleted: false,
      is_bot: user.isBot,
      is_app_user: false,
      profile: { email: user.email },
    },
  };
};
