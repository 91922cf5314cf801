import { Injectable } from '@nestjs/common';
import type { PluginLogger } from '@app/plugin-kit';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import type { CallBudget } from './call-budget.js';
import { slackCall } from './slack-call.js';
import type { WorkspaceClient } from './slack-client.factory.js';
import type { SlackSettings } from './slack-settings.js';
import { slackErrorCode } from './slack-errors.js';
import { notificationPayload } from './execution-metadata.js';

/** A message this execution posted (or edited) before this process knew about it. */
export interface EarlierDelivery {
  ts: string;
  /** The file uploaded for it, from its metadata. */
  fileId?: string;
  /** Whether that file was seen shared in the conversation. */
  fileShared: boolean;
}

interface Where {
  channel: string;
  /** `#builds` or the ID, for messages. */
  label: string;
  /** Scan this thread (conversations.replies) instead of the channel (conversations.history). */
  threadTs?: string;
}

interface ScannedMessage {
  ts?: string;
  /** Who posted it (a bot's messages carry its bot user). */
  user?: string;
  metadata?: unknown;
  files?: Array<{ id?: string }>;
  /** On a thread's parent: how many replies it has, and the ts of the newest. */
  reply_count?: number;
  latest_reply?: string;
}

/** A look at the messages: returns true to stop reading. */
type Visit = (message: ScannedMessage) => boolean;

/** One reading of a conversation: the workspace's client, where, and what this plugin call has left. */
interface Reading {
  client: WorkspaceClient;
  where: Where;
  budget: CallBudget;
  logger: PluginLogger;
}

/** conversations.replies takes a limit under 1000. */
const MAX_PAGE = 999;

/** Codes that mean "this token cannot read here", not "something is wrong". */
const UNREADABLE = new Set(['missing_scope', 'not_in_channel', 'channel_not_found']);
/** How long a channel that cannot be read is not asked again. */
const UNREADABLE_BACKOFF_MS = 10 * 60_000;

/**
 * Finds what an execution already did in Slack when this process has no record of it: after a sidecar
 * restart the kit's ledger is empty, but the messages carry the execution key in their metadata. The search
 * reads the SLACK_DEDUP_LOOKBACK most recent messages of the channel (or of the thread), where a message of
 * this execution would be. Without the history
 * scopes (or membership) it cannot search: it says so once in the log and the plugin relies on the ledger.
 */
@Injectable()
export class DuplicateFinder {
  private readonly lookback: number;
  private readonly unreadableUntil = new Map<string, number>();
  private readonly warned = new Set<string>();

  constructor(@InjectProviderContext('slack') context: ProviderContext<SlackSettings>) {
    this.lookback = context.settings.dedupLookback;
  }

  /**
   * The message this execution posted in the channel/thread, searched by its key; with `postedBy`, only a
   * message of that user counts (anyone who can post with metadata can copy a key).
   */
  async findPost(
    client: WorkspaceClient,
    where: Where,
    key: string,
    budget: CallBudget,
    logger: PluginLogger,
    postedBy?: string,
  ): Promise<EarlierDelivery | undefined> {
    let found: EarlierDelivery | undefined;
    const sharedFiles = new Set<string>();
    const reading = { client, where, budget, logger };
    // Newest first, in the channel as in a thread: later messages (the file share) are seen before the post.
    const visit: Visit = (message) => {
      for (const file of message.files ?? []) if (file.id) sharedFiles.add(file.id);
      const byAuthor = postedBy === undefined || message.user === postedBy;
      if (message.ts && byAuthor && notificationPayload(message)?.key === key)
        found = { ts: message.ts, fileId: notificationPayload(message)?.file_id, fileShared: false };
      return found !== undefined;
    };
    await this.guarded(reading, () =>
      where.threadTs ? this.newestReplies(reading, visit) : this.pages(reading, undefined, visit),
    );
    if (found?.fileId) found.fileShared = sharedFiles.has(found.fileId);
    return found;
  }

  /** For an edit: whether the target message already carries this execution's key (and which file). */
  async findUpdate(
    client: WorkspaceClient,
    where: Where,
    ts: string,
    key: string,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<EarlierDelivery | undefined> {
    let target: ScannedMessage | undefined;
    await this.inRange({ client, where, budget, logger }, { oldest: ts, latest: ts }, (message) => {
      if (message.ts === ts) target = message;
      return target !== undefined;
    });
    const payload = target ? notificationPayload(target) : undefined;
    if (!payload || payload.key !== key) return undefined;
    const fileShared = payload.file_id
      ? await this.fileShared(client, where, payload.file_id, ts, budget, logger)
      : false;
    return { ts, fileId: payload.file_id, fileShared };
  }

  /** Whether `fileId` was shared in the channel/thread after `afterTs`. */
  async fileShared(
    client: WorkspaceClient,
    where: Where,
    fileId: string,
    afterTs: string,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<boolean> {
    let seen = false;
    await this.inRange({ client, where, budget, logger }, { oldest: afterTs }, (message) => {
      seen = (message.files ?? []).some((f) => f.id === fileId);
      return seen;
    });
    return seen;
  }

  /**
   * Runs one reading unless the conversation cannot be read here (no history scope, not a member): then it
   * says so once in the log and answers false; the plugin relies on its ledger alone.
   */
  private async guarded(reading: Reading, read: () => Promise<void>): Promise<boolean> {
    const { client, where, logger } = reading;
    if (this.lookback === 0) return false;
    const scope = `${client.workspace}/${where.channel}`;
    if (
      (this.unreadableUntil.get(client.workspace) ?? 0) > Date.now() ||
      (this.unreadableUntil.get(scope) ?? 0) > Date.now()
    )
      return false;
    try {
      await read();
      return true;
    } catch (err) {
      const code = slackErrorCode(err);
      if (!code || !UNREADABLE.has(code)) throw err;
      const at = code === 'missing_scope' ? client.workspace : scope;
      this.unreadableUntil.set(at, Date.now() + UNREADABLE_BACKOFF_MS);
      this.warnOnce(`${at}:${code}`, logger, client.workspace, where.channel, code, err);
      return false;
    }
  }

  /** The messages of a time range, in the API's order, where the conversation can be read. */
  private inRange(
    reading: Reading,
    range: { oldest?: string; latest?: string },
    visit: Visit,
  ): Promise<boolean> {
    return this.guarded(reading, () => this.pages(reading, range, visit));
  }

  /** One conversations.history (channel) or conversations.replies (thread) request. */
  private request(reading: Reading, args: Record<string, unknown>) {
    const { client, where, budget, logger } = reading;
    const method = where.threadTs ? 'conversations.replies' : 'conversations.history';
    const site = { method, workspace: client.workspace, channel: where.label, ts: where.threadTs };
    const common = { channel: where.channel, include_all_metadata: true, ...args };
    return slackCall(site, budget, logger, () =>
      where.threadTs
        ? client.reads.conversations.replies({ ...common, ts: where.threadTs })
        : client.reads.conversations.history(common),
    );
  }

  /**
   * Reads up to `lookback` messages in the API's order (a channel's history newest first, a thread oldest
   * first), within `range` when given, until `visit` says stop.
   */
  private async pages(
    reading: Reading,
    range: { oldest?: string; latest?: string } | undefined,
    visit: Visit,
  ): Promise<void> {
    let cursor: string | undefined;
    let read = 0;
    do {
      const page = await this.request(reading, {
        limit: Math.min(200, this.lookback - read),
        ...(range?.oldest && { oldest: range.oldest }),
        ...(range?.latest && { latest: range.latest }),
        ...(range && { inclusive: true }),
        ...(cursor && { cursor }),
      });
      for (const message of (page.messages ?? []) as ScannedMessage[]) {
        read++;
        if (visit(message)) return;
      }
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor && read < this.lookback);
  }

  /**
   * Visits the `lookback` newest replies of a thread, newest first: where a reply of this execution would be,
   * however long the thread. conversations.replies pages oldest first, so a thread longer than the look-back
   * is read in windows of time back from its newest reply, each window oldest first and visited in reverse: the
   * first one as long as the look-back's worth of replies at the thread's pace (from its oldest page, its
   * reply count and newest reply), each next one twice as long; a window holding more replies than the
   * look-back has left is halved, its newer half first. A thread within the look-back is one request.
   */
  private async newestReplies(reading: Reading, visit: Visit): Promise<void> {
    const threadTs = reading.where.threadTs!;
    const seen = new Set<string>();
    let read = 0;
    /** Visits the replies among `messages` newest first; true once `visit` stops or the look-back is spent. */
    const visitNewestFirst = (messages: ScannedMessage[]): boolean => {
      for (const message of [...messages].reverse()) {
        if (!message.ts || message.ts === threadTs || seen.has(message.ts)) continue;
        seen.add(message.ts);
        read++;
        if (visit(message) || read >= this.lookback) return true;
      }
      return false;
    };
    const whole = await this.request(reading, { limit: Math.min(MAX_PAGE, this.lookback + 1) });
    const messages = (whole.messages ?? []) as ScannedMessage[];
    if (!whole.has_more && !whole.response_metadata?.next_cursor) {
      visitNewestFirst(messages);
      return;
    }
    const root = Number(threadTs);
    const parent = messages.find((m) => m.ts === threadTs);
    const newest = Number(parent?.latest_reply ?? Date.now() / 1000);
    const oldestPage = messages.filter((m) => m.ts !== threadTs).map((m) => Number(m.ts));
    const afterPage = Math.max(1, (parent?.reply_count ?? 0) - oldestPage.length);
    const paced = ((newest - Math.max(root, ...oldestPage)) * this.lookback) / afterPage;
    let upper: number | undefined; // undefined: up to Slack's now
    for (let span = Math.max(1e-6, paced); ; span *= 2) {
      const oldest = Math.max(root, (upper ?? newest) - span);
      const windows: Array<{ oldest: number; latest?: number }> = [{ oldest, latest: upper }];
      while (windows.length > 0) {
        const window = windows.pop()!;
        const left = this.lookback - read;
        const page = await this.request(reading, {
          oldest: window.oldest.toFixed(6),
          ...(window.latest !== undefined && { latest: window.latest.toFixed(6) }),
          inclusive: true,
          limit: Math.min(MAX_PAGE, left + 1),
        });
        const replies = ((page.messages ?? []) as ScannedMessage[]).filter((m) => m.ts !== threadTs);
        const top = window.latest ?? Math.max(newest, Date.now() / 1000);
        if ((page.has_more || replies.length > left) && top - window.oldest > 2e-6) {
          const middle = (window.oldest + top) / 2;
          windows.push({ oldest: window.oldest, latest: middle }, { oldest: middle, latest: window.latest });
          continue;
        }
        if (visitNewestFirst(replies)) return;
      }
      if (oldest <= root) return;
      upper = oldest;
    }
  }

  private warnOnce(
    id: string,
    logger: PluginLogger,
    workspace: string,
    channel: string,
    code: string,
    err: unknown,
  ): void {
    if (this.warned.has(id)) return;
    this.warned.add(id);
    const why =
      code === 'missing_scope'
        ? 'the token cannot read message history (add channels:history and groups:history to the app)'
        : `the app cannot read ${channel} (invite it to the channel)`;
    logger.warn(
      { workspace, channel, code, detail: err instanceof Error ? err.message : String(err) },
      `restart protection is off: ${why}; duplicates are still prevented within this sidecar's life, but a message being posted while the sidecar restarts may be posted twice`,
    );
  }
}
