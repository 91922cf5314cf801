import { Injectable } from '@nestjs/common';
import { PluginConfigError, type PluginLogger } from '@app/plugin-kit';
import type { CallBudget } from './call-budget.js';
import { slackCall } from './slack-call.js';
import type { WorkspaceClient } from './slack-client.factory.js';
import { slackErrorCode } from './slack-errors.js';

/** How long a user group's members are trusted (usergroups.users.list is Tier 2: 20 calls a minute). */
const MEMBERS_TTL_MS = 60_000;
/** How long the handle → ID list of user groups is kept. */
const HANDLES_TTL_MS = 10 * 60_000;
/** Users whose bot flag is remembered, per sidecar. */
const MAX_KNOWN_USERS = 10_000;

interface Cached<T> {
  value: T;
  until: number;
}

/**
 * What the gates of a sidecar share about each workspace: the app's own user, which users are bots, user
 * groups by handle and their members. Shared so 500 open gates asking about one group cost one call a minute.
 */
@Injectable()
export class SlackDirectory {
  private readonly botUsers = new Map<string, string>();
  private readonly bots = new Map<string, boolean>();
  private readonly handles = new Map<string, Cached<Map<string, string>>>();
  private readonly members = new Map<string, Cached<string[]>>();

  /** The user ID of the workspace's bot (auth.test): the author of every request. */
  async botUser(client: WorkspaceClient, budget: CallBudget, logger: PluginLogger): Promise<string> {
    const known = this.botUsers.get(client.workspace);
    if (known) return known;
    const site = { method: 'auth.test', workspace: client.workspace };
    const reply = await slackCall(site, budget, logger, () => client.reads.auth.test());
    if (typeof reply.user_id !== 'string') throw new Error('slack: auth.test: the reply has no user_id');
    this.botUsers.set(client.workspace, reply.user_id);
    return reply.user_id;
  }

  /** Whether `user` is a bot or an app (users.info), remembered for the sidecar's life. */
  async isBot(
    client: WorkspaceClient,
    user: string,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<boolean> {
    const id = `${client.workspace}/${user}`;
    const known = this.bots.get(id);
    if (known !== undefined) return known;
    if (user === 'USLACKBOT') return true;
    const site = { method: 'users.info', workspace: client.workspace };
    const reply = await slackCall(site, budget, logger, () => client.reads.users.info({ user }));
    const bot = reply.user?.is_bot === true || reply.user?.is_app_user === true;
    if (this.bots.size >= MAX_KNOWN_USERS) this.bots.clear();
    this.bots.set(id, bot);
    return bot;
  }

  /** The ID of the user whose profile has `email` (users.lookupByEmail, needs users:read.email), or undefined. */
  async userByEmail(
    client: WorkspaceClient,
    email: string,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<string | undefined> {
    const site = { method: 'users.lookupByEmail', workspace: client.workspace };
    try {
      const reply = await slackCall(site, budget, logger, () => client.reads.users.lookupByEmail({ email }));
      return typeof reply.user?.id === 'string' ? reply.user.id : undefined;
    } catch (err) {
      if (slackErrorCode(err) === 'users_not_found') return undefined;
      throw err;
    }
  }

  /** The ID of the user group with `handle` (usergroups.list), or undefined. */
  async groupByHandle(
    client: WorkspaceClient,
    handle: string,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<string | undefined> {
    const cached = this.handles.get(client.workspace);
    if (cached && cached.until > Date.now() && cached.value.has(handle)) return cached.value.get(handle);
    const site = { method: 'usergroups.list', workspace: client.workspace };
    const reply = await slackCall(site, budget, logger, () => client.reads.usergroups.list({}));
    const byHandle = new Map(
      (reply.usergroups ?? []).flatMap((g) => (g.handle && g.id ? [[g.handle, g.id] as const] : [])),
    );
    this.handles.set(client.workspace, { value: byHandle, until: Date.now() + HANDLES_TTL_MS });
    return byHandle.get(handle);
  }

  /** The user IDs of a user group (usergroups.users.list), kept for a minute. */
  async groupMembers(
    client: WorkspaceClient,
    group: string,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<string[]> {
    const id = `${client.workspace}/${group}`;
    const cached = this.members.get(id);
    if (cached && cached.until > Date.now()) return cached.value;
    const site = { method: 'usergroups.users.list', workspace: client.workspace };
    try {
      const reply = await slackCall(site, budget, logger, () =>
        client.reads.usergroups.users.list({ usergroup: group }),
      );
      const users = (reply.users ?? []).filter((u): u is string => typeof u === 'string');
      this.members.set(id, { value: users, until: Date.now() + MEMBERS_TTL_MS });
      return users;
    } catch (err) {
      if (slackErrorCode(err) === 'no_such_subteam')
        throw new PluginConfigError(`approvers: no user group ${group} in workspace "${client.workspace}"`);
      throw err;
    }
  }
}
