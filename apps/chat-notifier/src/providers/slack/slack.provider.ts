import { Injectable } from '@nestjs/common';
import type { ChatPostMessageArguments } from '@slack/web-api';
import type { ExecuteTemplateReply } from '@app/contract';
import { succeeded, type ExecutionContext, type PluginLogger } from '@app/plugin-kit';
import { DuplicateFinder } from './duplicate-finder.js';
import { notificationMetadata } from './execution-metadata.js';
import { FileUploader } from './file-uploader.js';
import { SlackConfig } from './slack-block.dto.js';
import { renderMessage, type RenderedMessage } from './slack-message.js';
import { CallBudget } from './call-budget.js';
import { ChannelResolver, type ResolvedChannel } from './channel-resolver.js';
import { SlackClientFactory, type WorkspaceClient } from './slack-client.factory.js';
import { slackCall } from './slack-call.js';
import { replyFields } from '../../shared/reply-fields.js';
import { mayHaveHappened } from '../../shared/write-outcome.js';
import { slackSaidMaybeDone } from './slack-errors.js';
import type { NotifierProvider, ProviderModule } from '../notifier-provider.js';

/**
 * What this process remembers of one execution (kept by the kit's ledger between calls). Every step is
 * recorded as soon as it is done, so a retried call (transient error, deadline) resumes instead of repeating.
 */
export interface SlackState {
  channel?: ResolvedChannel;
  /**
   * This process had no record of the execution when it started: Slack must be searched for what an earlier
   * process (before a restart) already did, before anything is sent.
   */
  searchPending?: boolean;
  /** The file's bytes are uploaded (not shared yet). */
  fileId?: string;
  /** The message posted, found or edited. */
  ts?: string;
  /** A post or share went out and no answer came back: Slack may have done it. */
  postUncertain?: boolean;
  shareUncertain?: boolean;
  fileShared?: boolean;
  /** Found in Slack by its metadata instead of posted by this process. */
  recovered?: boolean;
  permalink?: string;
}

type Ctx = ExecutionContext<SlackConfig, SlackState>;

interface Call {
  ctx: Ctx;
  client: WorkspaceClient;
  channel: ResolvedChannel;
  budget: CallBudget;
  log: PluginLogger;
  state: SlackState;
  save(patch: Partial<SlackState>): Promise<void>;
}

/** Posts, replies to or edits one Slack message per execution, optionally with a file. */
@Injectable()
export class SlackProvider implements NotifierProvider<SlackConfig> {
  constructor(
    private readonly clients: SlackClientFactory,
    private readonly channels: ChannelResolver,
    private readonly finder: DuplicateFinder,
    private readonly files: FileUploader,
  ) {}

  async execute(ctx: Ctx): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    const budget = new CallBudget(ctx.signal);
    const client = this.clients.forWorkspace(config.workspace, ctx.workflow.namespace);
    const rendered = renderMessage(config);
    const known = ctx.state.get();
    const state: SlackState = { ...known };
    const save = async (patch: Partial<SlackState>) => {
      Object.assign(state, patch);
      await ctx.state.set({ ...state });
    };
    // No record in this process (ctx.call is 1): a first call, or the first one after a sidecar restart.
    // Recorded at once, so a call that fails before the search still leaves it to the next one.
    if (!known) await save({ searchPending: true });
    const channel =
      state.channel ?? (await this.channels.resolve(client, config.channel, budget, ctx.logger));
    if (!state.channel) await save({ channel });
    const call: Call = { ctx, client, channel, budget, log: ctx.logger, state, save };

    if (config.updateTs) await this.edit(call, rendered, config.updateTs);
    else await this.post(call, rendered);
    if (config.file && !state.fileShared) await this.shareFile(call);

    const ts = state.ts!;
    if (!state.permalink) {
      const site = { method: 'chat.getPermalink', workspace: client.workspace, channel: channel.label, ts };
      const link = await slackCall(site, budget, ctx.logger, () =>
        client.reads.chat.getPermalink({ channel: channel.id, message_ts: ts }),
      );
      await save({
        permalink: replyFields('slack', 'chat.getPermalink', link, { permalink: 'string' }).permalink,
      });
    }
    const threadTs = config.threadTs ?? ts;
    return succeeded(
      { ts, channel: channel.id, threadTs, permalink: state.permalink },
      this.describe(call, ts),
    );
  }

  private async post(call: Call, rendered: RenderedMessage): Promise<void> {
    const { ctx, client, channel, budget, log, state, save } = call;
    const { config } = ctx;
    if (state.ts) return;
    if (state.searchPending || state.postUncertain) {
      const where = { channel: channel.id, label: channel.label, threadTs: config.threadTs };
      const earlier = await this.finder.findPost(client, where, ctx.key, budget, log);
      if (earlier) {
        log.info(
          { ts: earlier.ts, fileShared: earlier.fileShared },
          'slack: this execution already posted its message (found by its metadata); not posting again',
        );
        await save({
          ts: earlier.ts,
          fileId: earlier.fileId ?? state.fileId,
          fileShared: earlier.fileShared,
          recovered: true,
          postUncertain: false,
          searchPending: false,
        });
        return;
      }
      await save({ searchPending: false });
    }
    if (config.file && !state.fileId)
      await save({ fileId: await this.files.upload(client, config.file, budget, log) });
    await save({ postUncertain: true });
    const site = {
      method: 'chat.postMessage',
      workspace: client.workspace,
      channel: channel.label,
      ts: config.threadTs,
    };
    try {
      const args = {
        channel: channel.id,
        text: rendered.text,
        ...(rendered.blocks && { blocks: rendered.blocks }),
        ...(rendered.attachments && { attachments: rendered.attachments }),
        ...(config.threadTs && {
          thread_ts: config.threadTs,
          reply_broadcast: config.replyBroadcast ?? false,
        }),
        unfurl_links: config.unfurlLinks ?? false,
        metadata: notificationMetadata(ctx, state.fileId),
      } as ChatPostMessageArguments;
      const posted = await slackCall(site, budget, log, () => client.writes.chat.postMessage(args));
      await save({
        ts: replyFields('slack', 'chat.postMessage', posted, { ts: 'string' }).ts,
        postUncertain: false,
      });
    } catch (err) {
      if (!mayHaveHappened(err, slackSaidMaybeDone)) await save({ postUncertain: false });
      throw err;
    }
  }

  /** chat.update is idempotent: repeating it leaves the same message. Only the file needs care. */
  private async edit(call: Call, rendered: RenderedMessage, updateTs: string): Promise<void> {
    const { ctx, client, channel, budget, log, state, save } = call;
    const { config } = ctx;
    if (state.ts) return;
    if (config.file && state.searchPending) {
      const where = { channel: channel.id, label: channel.label, threadTs: config.threadTs };
      const earlier = await this.finder.findUpdate(client, where, updateTs, ctx.key, budget, log);
      if (earlier?.fileId)
        await save({ fileId: earlier.fileId, fileShared: earlier.fileShared, recovered: true });
      await save({ searchPending: false });
    }
    if (config.file && !state.fileId)
      await save({ fileId: await this.files.upload(client, config.file, budget, log) });
    const site = { method: 'chat.update', workspace: client.workspace, channel: channel.label, ts: updateTs };
    await slackCall(site, budget, log, () =>
      client.writes.chat.update({
        channel: channel.id,
        ts: updateTs,
        text: rendered.text,
        // Fields left out keep their old value in Slack: send empty lists so a stale status bar goes away.
        blocks: rendered.blocks ?? [],
        attachments: rendered.attachments ?? [],
        ...(config.file && { metadata: notificationMetadata(ctx, state.fileId) }),
      }),
    );
    await save({ ts: updateTs });
  }

  private async shareFile(call: Call): Promise<void> {
    const { ctx, client, channel, budget, log, state, save } = call;
    const file = ctx.config.file!;
    const where = { channel: channel.id, label: channel.label, threadTs: ctx.config.threadTs };
    if (!state.fileId) await save({ fileId: await this.files.upload(client, file, budget, log) });
    if (
      state.shareUncertain &&
      (await this.finder.fileShared(client, where, state.fileId!, state.ts!, budget, log))
    ) {
      await save({ fileShared: true, shareUncertain: false });
      return;
    }
    await save({ shareUncertain: true });
    try {
      await this.files.share(client, state.fileId!, file, where, budget, log);
      await save({ fileShared: true, shareUncertain: false });
    } catch (err) {
      if (!mayHaveHappened(err, slackSaidMaybeDone)) await save({ shareUncertain: false });
      throw err;
    }
  }

  private describe(call: Call, ts: string): string {
    const { config } = call.ctx;
    const link = call.state.permalink || ts;
    const where = call.channel.label;
    const action = config.updateTs
      ? `updated ${link}`
      : config.threadTs
        ? `replied in thread ${config.threadTs} in ${where}: ${link}`
        : `posted to ${where}: ${link}`;
    const file = config.file ? ` with file ${config.file.filename}` : '';
    const recovered = call.state.recovered ? ' (found in Slack after a restart; not sent again)' : '';
    return `${action}${file}${recovered}`;
  }
}

/** What the definition's `load()` gives: the block class and the Nest provider. */
export const slackModule: ProviderModule<SlackConfig> = {
  block: SlackConfig,
  provider: SlackProvider,
  helpers: [SlackClientFactory, ChannelResolver, DuplicateFinder, FileUploader],
};
