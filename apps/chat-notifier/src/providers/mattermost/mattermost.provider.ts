import { Injectable } from '@nestjs/common';
import type { ExecuteTemplateReply } from '@app/contract';
import { PluginConfigError, succeeded, UpstreamClients, type ExecutionContext } from '@app/plugin-kit';
import { InjectProviderContext, type ProviderContext } from '@app/plugin-kit/providers/provider-context.js';
import { MATTERMOST_ID, MattermostConfig } from './mattermost-block.dto.js';
import type { NotifierProvider, ProviderModule } from '../notifier-provider.js';
import { mayHaveHappened } from '../../shared/write-outcome.js';
import { MattermostApi, type MattermostPost } from './mattermost-api.js';
import { MATTERMOST_SERVERS, type MattermostServer, type MattermostSettings } from './mattermost-settings.js';
import { renderMattermost } from './mattermost-message.js';

/** The post prop that carries the execution key: how a post is recognised after a sidecar restart. */
export const EXECUTION_KEY_PROP = 'argo_execution_key';

/** What this process remembers of one execution, saved after every step so a retried call resumes. */
interface MattermostState {
  channelId?: string;
  /** No record in this process when it started: search Mattermost before posting (a restart). */
  searchPending?: boolean;
  /** A post went out and no answer came back. */
  postUncertain?: boolean;
  fileId?: string;
  post?: Pick<MattermostPost, 'id' | 'channel_id' | 'root_id'>;
  recovered?: boolean;
}

type Ctx = ExecutionContext<MattermostConfig, MattermostState>;

/**
 * Mattermost through the REST API v4 with a bot token: a post, a thread reply (`root_id`) or an edit
 * (`PUT /posts/{id}`), with mentions, a status attachment and a file. One post per execution: the ledger
 * within a process, Mattermost's `pending_post_id` deduplication (30 s) across concurrent senders, and after
 * a restart a search of the channel (or thread) for the post whose props carry the execution key.
 */
@Injectable()
export class MattermostProvider implements NotifierProvider<MattermostConfig> {
  private readonly apis: UpstreamClients<MattermostServer, MattermostApi>;
  private readonly settings: MattermostSettings;

  constructor(
    @InjectProviderContext('mattermost') private readonly context: ProviderContext<MattermostSettings>,
  ) {
    const { timeoutMs, redactor } = context;
    this.settings = context.settings;
    for (const server of this.settings.servers.values()) redactor.add(server.token);
    this.apis = new UpstreamClients(
      MATTERMOST_SERVERS,
      this.settings.servers,
      (server, name) => new MattermostApi(name, server, timeoutMs),
    );
  }

  async execute(ctx: Ctx): Promise<ExecuteTemplateReply> {
    const { config } = ctx;
    if (config.update && config.file)
      throw new PluginConfigError('file: cannot be added by an edit (update); post it as a reply instead');
    if (config.update && config.thread)
      throw new PluginConfigError('thread: an edit (update) stays where the post is; leave thread out');
    // Checked on every call, cached client or not: NAMESPACE_SCOPES depends on the workflow.
    const api = this.apis.get(config.server, {
      scopes: this.context.scopes,
      namespace: ctx.workflow.namespace,
    });
    const known = ctx.state.get();
    const state: MattermostState = { ...known };
    const save = async (patch: Partial<MattermostState>) => {
      Object.assign(state, patch);
      await ctx.state.set({ ...state });
    };
    if (!known) await save({ searchPending: true });
    if (!state.channelId) await save({ channelId: await this.channelId(api, config) });
    const rendered = renderMattermost(config);
    const props = { [EXECUTION_KEY_PROP]: ctx.key, attachments: rendered.attachments };

    if (config.update && !state.post) {
      // Checked first, so a post ID from another channel is never edited.
      const target = await api.getPost(config.update);
      if (target.channel_id !== state.channelId)
        throw new PluginConfigError(`update: post ${config.update} is not in channel ${config.channel}`);
      await save({ post: pick(await api.updatePost(config.update, { message: rendered.message, props })) });
    }
    if (!state.post && (state.searchPending || state.postUncertain)) {
      const earlier = await this.findEarlier(api, state.channelId!, config.thread, ctx.key);
      if (earlier) {
        ctx.logger.info(
          { id: earlier.id },
          'mattermost: this execution already posted (found by its key); not posting again',
        );
        await save({ post: pick(earlier), recovered: true });
      }
      await save({ searchPending: false, postUncertain: false });
    }
    if (!state.post) {
      if (config.file && !state.fileId)
        await save({
          fileId: await api.uploadFile(state.channelId!, config.file.filename, config.file.content),
        });
      await save({ postUncertain: true });
      try {
        const post = await api.createPost({
          channel_id: state.channelId!,
          message: rendered.message,
          ...(config.thread && { root_id: config.thread }),
          ...(state.fileId && { file_ids: [state.fileId] }),
          props,
          pending_post_id: `argo-${ctx.key}`,
        });
        await save({ post: pick(post), postUncertain: false });
      } catch (err) {
        if (!mayHaveHappened(err)) await save({ postUncertain: false });
        throw err;
      }
    }
    const post = state.post!;
    const url = `${this.settings.servers.get(api.server)!.url}/_redirect/pl/${post.id}`;
    return succeeded(
      { id: post.id, channel: post.channel_id, thread: post.root_id || post.id, url },
      this.describe(config, url, state.recovered),
    );
  }

  private async channelId(api: MattermostApi, config: MattermostConfig): Promise<string> {
    if (MATTERMOST_ID.test(config.channel)) return config.channel;
    return (await api.channelByName(config.team!, config.channel.replace(/^~/, ''))).id;
  }

  /** The post of this execution among the recent posts of the channel (or the thread), if any. */
  private async findEarlier(
    api: MattermostApi,
    channelId: string,
    thread: string | undefined,
    key: string,
  ): Promise<MattermostPost | undefined> {
    const lookback = this.settings.dedupLookback;
    if (lookback === 0) return undefined;
    const posts = thread ? await api.thread(thread) : await api.recentPosts(channelId, lookback);
    return posts.find((p) => p.props?.[EXECUTION_KEY_PROP] === key && !p.delete_at);
  }

  private describe(config: MattermostConfig, url: string, recovered?: boolean): string {
    const where = config.team ? `~${config.channel.replace(/^~/, '')}` : config.channel;
    const action = config.update
      ? `updated ${url}`
      : config.thread
        ? `replied in thread ${config.thread} in ${where}: ${url}`
        : `posted to ${where}: ${url}`;
    const file = config.file ? ` with file ${config.file.filename}` : '';
    return `${action}${file}${recovered ? ' (found in Mattermost after a restart; not sent again)' : ''}`;
  }
}

function pick(post: MattermostPost): Pick<MattermostPost, 'id' | 'channel_id' | 'root_id'> {
  return { id: post.id, channel_id: post.channel_id, root_id: post.root_id ?? '' };
}

/** What the definition's `load()` gives: the block class and the Nest provider. */
export const mattermostModule: ProviderModule<MattermostConfig> = {
  block: MattermostConfig,
  provider: MattermostProvider,
};
