import { Injectable } from '@nestjs/common';
import type { PluginLogger } from '@app/plugin-kit';
import { NotifierEnv } from '../../config/notifier.env.js';
import { slack } from './index.js';
import type { CallBudget } from './call-budget.js';
import { slackCall } from './slack-call.js';
import type { WorkspaceClient } from './slack-client.factory.js';
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
  metadata?: unknown;
  files?: Array<{ id?: string }>;
}

/** Codes that mean "this token cannot read here", not "something is wrong". */
const UNREADABLE = new Set(['missing_scope', 'not_in_channel', 'channel_not_found']);
/** How long a channel that cannot be read is not asked again. */
const UNREADABLE_BACKOFF_MS = 10 * 60_000;

/**
 * Finds what an execution already did in Slack when this process has no record of it: after a sidecar
 * restart the kit's ledger is empty, but the messages carry the execution key in their metadata. The search
 * reads at most SLACK_DEDUP_LOOKBACK recent messages of the channel (or of the thread). Without the history
 * scopes (or membership) it cannot search: it says so once in the log and the plugin relies on the ledger.
 */
@Injectable()
export class DuplicateFinder {
  private readonly lookback: number;
  private readonly unreadableUntil = new Map<string, number>();
  private readonly warned = new Set<string>();

  constructor(env: NotifierEnv) {
    this.lookback = env.settingsOf(slack).dedupLookback;
  }

  /** The message this execution posted in the channel/thread, searched by its key. */
  async findPost(
    client: WorkspaceClient,
    where: Where,
    key: string,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<EarlierDelivery | undefined> {
    let found: EarlierDelivery | undefined;
    const sharedFiles = new Set<string>();
    await this.scan(client, where, undefined, budget, logger, (message) => {
      for (const file of message.files ?? []) if (file.id) sharedFiles.add(file.id);
      if (!found && message.ts && notificationPayload(message)?.key === key) {
        found = { ts: message.ts, fileId: notificationPayload(message)?.file_id, fileShared: false };
        // History runs newest first, so later messages (the file share) were already seen; a thread runs
        // oldest first, so keep reading it.
        return where.threadTs === undefined;
      }
      return false;
    });
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
    await this.scan(client, where, { oldest: ts, latest: ts }, budget, logger, (message) => {
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
    await this.scan(client, where, { oldest: afterTs }, budget, logger, (message) => {
      seen = (message.files ?? []).some((f) => f.id === fileId);
      return seen;
    });
    return seen;
  }

  /**
   * Reads up to `lookback` messages, newest first (channel) or in thread order, until `visit` returns true.
   * Returns false when the messages cannot be read here.
   */
  private async scan(
    client: WorkspaceClient,
    where: Where,
    range: { oldest?: string; latest?: string } | undefined,
    budget: CallBudget,
    logger: PluginLogger,
    visit: (message: ScannedMessage) => boolean,
  ): Promise<boolean> {
    if (this.lookback === 0) return false;
    const scope = `${client.workspace}/${where.channel}`;
    if (
      (this.unreadableUntil.get(client.workspace) ?? 0) > Date.now() ||
      (this.unreadableUntil.get(scope) ?? 0) > Date.now()
    )
      return false;
    const method = where.threadTs ? 'conversations.replies' : 'conversations.history';
    let cursor: string | undefined;
    let read = 0;
    try {
      do {
        const limit = Math.min(200, this.lookback - read);
        const args = {
          channel: where.channel,
          limit,
          include_all_metadata: true,
          ...(range?.oldest && { oldest: range.oldest }),
          ...(range?.latest && { latest: range.latest }),
          ...(range && { inclusive: true }),
          ...(cursor && { cursor }),
        };
        const site = { method, workspace: client.workspace, channel: where.label, ts: where.threadTs };
        const page = await slackCall(site, budget, logger, () =>
          where.threadTs
            ? client.reads.conversations.replies({ ...args, ts: where.threadTs })
            : client.reads.conversations.history(args),
        );
        for (const message of (page.messages ?? []) as ScannedMessage[]) {
          read++;
          if (visit(message)) return true;
        }
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor && read < this.lookback);
      return true;
    } catch (err) {
      const code = slackErrorCode(err);
      if (!code || !UNREADABLE.has(code)) throw err;
      this.unreadableUntil.set(
        code === 'missing_scope' ? client.workspace : scope,
        Date.now() + UNREADABLE_BACKOFF_MS,
      );
      this.warnOnce(
        `${code === 'missing_scope' ? client.workspace : scope}:${code}`,
        logger,
        client.workspace,
        where.channel,
        code,
        err,
      );
      return false;
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
