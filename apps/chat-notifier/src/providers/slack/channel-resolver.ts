import { Injectable } from '@nestjs/common';
import { parseDuration } from '@app/contract';
import { UpstreamError, type PluginLogger } from '@app/plugin-kit';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import { CHANNEL_ID } from './slack-fields.js';
import type { CallBudget } from './call-budget.js';
import { slackCall } from './slack-call.js';
import type { WorkspaceClient } from './slack-client.factory.js';
import type { SlackSettings } from './slack-settings.js';

export interface ResolvedChannel {
  id: string;
  /** `#builds` when the name is known, else the ID: for node messages. */
  label: string;
}

interface ListedChannel {
  id?: string;
  name?: string;
}

/** What is known of one workspace's channels: a scan of conversations.list that can stop and resume. */
interface Directory {
  byName: Map<string, string>;
  byId: Map<string, string>;
  /** Where the scan continues; undefined before the first page. */
  cursor?: string;
  complete: boolean;
  startedAt: number;
  completedAt: number;
}

/** Slack's suggested page size for conversations.list. */
const PAGE_SIZE = 200;
/** A name missing from a complete scan triggers a new scan at most this often (Tier 2 method: 20 calls a minute). */
const RESCAN_AFTER_MS = 10_000;

/**
 * Channel names → IDs, per workspace, cached for SLACK_CHANNEL_CACHE_TTL. The scan pages conversations.list
 * (public and private channels the app can see, archived ones excluded) and stops as soon as the name turns
 * up; the cursor is kept, so a later lookup (or a retry after a rate limit) continues where it stopped.
 * One scan per workspace at a time.
 */
@Injectable()
export class ChannelResolver {
  private readonly directories = new Map<string, Directory>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly ttlMs: number;
  /** The clock (tests move it). */
  now: () => number = Date.now;

  constructor(@InjectProviderContext('slack') context: ProviderContext<SlackSettings>) {
    this.ttlMs = parseDuration(context.settings.channelCacheTtl);
  }

  async resolve(
    client: WorkspaceClient,
    ref: string,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<ResolvedChannel> {
    if (CHANNEL_ID.test(ref)) {
      const name = this.directories.get(client.workspace)?.byId.get(ref);
      return { id: ref, label: name ? `#${name}` : ref };
    }
    const name = ref.replace(/^#/, '').toLowerCase();
    return this.exclusive(client.workspace, async () => {
      const directory = this.directory(client.workspace);
      const known = directory.byName.get(name);
      if (known) return { id: known, label: `#${name}` };
      if (directory.complete) {
        if (this.now() - directory.completedAt < RESCAN_AFTER_MS) throw notFound(name, client.workspace);
        this.directories.delete(client.workspace);
      }
      const id = await this.scanFor(name, client, budget, logger);
      if (!id) throw notFound(name, client.workspace);
      return { id, label: `#${name}` };
    });
  }

  private directory(workspace: string): Directory {
    const existing = this.directories.get(workspace);
    if (existing && this.now() - existing.startedAt <= this.ttlMs) return existing;
    const fresh: Directory = {
      byName: new Map(),
      byId: new Map(),
      complete: false,
      startedAt: this.now(),
      completedAt: 0,
    };
    this.directories.set(workspace, fresh);
    return fresh;
  }

  private async scanFor(
    name: string,
    client: WorkspaceClient,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<string | undefined> {
    const directory = this.directory(client.workspace);
    let pages = 0;
    while (!directory.complete) {
      const site = { method: 'conversations.list', workspace: client.workspace, channel: `#${name}` };
      const page = await slackCall(site, budget, logger, () =>
        client.reads.conversations.list({
          types: 'public_channel,private_channel',
          exclude_archived: true,
          limit: PAGE_SIZE,
          ...(directory.cursor && { cursor: directory.cursor }),
        }),
      ).catch((err: unknown) => {
        throw withResolutionHint(err);
      });
      pages++;
      for (const channel of (page.channels ?? []) as ListedChannel[]) {
        if (!channel.id || !channel.name) continue;
        directory.byName.set(channel.name.toLowerCase(), channel.id);
        directory.byId.set(channel.id, channel.name);
      }
      const next = page.response_metadata?.next_cursor;
      if (next) directory.cursor = next;
      else {
        directory.complete = true;
        directory.completedAt = this.now();
      }
      if (directory.byName.has(name)) break;
    }
    logger.debug(
      { workspace: client.workspace, pages, known: directory.byName.size, complete: directory.complete },
      'channel names scanned',
    );
    return directory.byName.get(name);
  }

  private async exclusive<T>(workspace: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(workspace) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(fn);
    this.locks.set(workspace, mine);
    try {
      return await mine;
    } finally {
      if (this.locks.get(workspace) === mine) this.locks.delete(workspace);
    }
  }
}

function notFound(name: string, workspace: string): UpstreamError {
  return UpstreamError.permanent(
    `slack: channel #${name} not found in workspace "${workspace}" (channel_not_found): check the name; archived channels are skipped, ` +
      'and a private channel is only visible once the app is invited (/invite @your-app); a channel ID (C…) works too',
  );
}

function withResolutionHint(err: unknown): unknown {
  if (err instanceof UpstreamError && err.message.includes('(missing_scope)')) {
    return new UpstreamError(
      err.kind,
      `${err.message}; it is needed to look up channel names (or give the channel ID instead)`,
      {
        status: err.status,
        cause: err,
      },
    );
  }
  return err;
}
