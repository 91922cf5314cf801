import type { AxiosInstance } from 'axios';
import { UpstreamError, upstreamVariable } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { MattermostServer } from './mattermost-settings.js';
import { withHint } from '../../shared/upstream-hints.js';
import { replyFields } from '../../shared/reply-fields.js';

/** The parts of a Mattermost post the plugin reads (https://developers.mattermost.com/api-documentation/#/tag/posts). */
export interface MattermostPost {
  id: string;
  channel_id: string;
  root_id: string;
  user_id: string;
  message: string;
  props?: Record<string, unknown>;
  file_ids?: string[];
  delete_at?: number;
}

/** GET /channels/{id}/posts and GET /posts/{id}/thread: ids newest first, and the posts by id. */
interface PostList {
  order: string[];
  posts: Record<string, MattermostPost>;
}

export interface NewPost {
  channel_id: string;
  message: string;
  root_id?: string;
  file_ids?: string[];
  props: Record<string, unknown>;
  /** Mattermost returns the post it already created for this id within 30 s instead of a second one. */
  pending_post_id: string;
}

/** Largest page GET /channels/{id}/posts hands out. */
const MAX_PER_PAGE = 200;

/** Mattermost's error body: `{id, message, detailed_error, request_id, status_code}`. */
function describe(data: unknown): string | undefined {
  const d = data as { id?: unknown; message?: unknown } | undefined;
  if (typeof d?.message !== 'string') return undefined;
  return typeof d.id === 'string' ? `${d.message} (${d.id})` : d.message;
}

/** The REST API v4 of one Mattermost server, with its bot token. */
export class MattermostApi {
  private readonly http: AxiosInstance;

  constructor(
    readonly server: string,
    config: MattermostServer,
    timeoutMs: number,
  ) {
    this.http = createUpstreamClient({
      upstream: 'mattermost',
      baseURL: `${config.url}/api/v4`,
      headers: { Authorization: `Bearer ${config.token}` },
      timeoutMs,
      describe: (response) => describe(response.data),
    });
  }

  private get hints() {
    const variable = upstreamVariable({ prefix: 'MATTERMOST' }, this.server, 'TOKEN');
    return {
      401: `the token of server "${this.server}" is invalid, expired or revoked: the admin renews ${variable}`,
      403: 'the bot lacks a permission here: add it to the team and the channel (and, for edits, it can only edit its own posts)',
    };
  }

  private async call<T>(run: () => Promise<{ data: T }>, notFound?: string): Promise<T> {
    try {
      return (await run()).data;
    } catch (err) {
      throw withHint(err, { ...this.hints, ...(notFound && { 404: notFound }) });
    }
  }

  async channelByName(team: string, channel: string): Promise<{ id: string }> {
    const path = `/teams/name/${encodeURIComponent(team)}/channels/name/${encodeURIComponent(channel)}`;
    const data = await this.call(
      () => this.http.get(path),
      `no channel "${channel}" in team "${team}" that the bot can see: check both names in the channel's URL, and add the bot to the team`,
    );
    return replyFields('mattermost', `GET /api/v4${path}`, data, { id: 'string' });
  }

  async createPost(post: NewPost): Promise<MattermostPost> {
    const data = await this.call(
      () => this.http.post('/posts', post),
      'the channel or the thread does not exist',
    );
    return postOf('POST /api/v4/posts', data);
  }

  async updatePost(
    id: string,
    change: { message: string; props: Record<string, unknown> },
  ): Promise<MattermostPost> {
    const data = await this.call(
      () => this.http.put(`/posts/${id}`, { id, ...change }),
      `post ${id} does not exist (or was deleted)`,
    );
    return postOf(`PUT /api/v4/posts/${id}`, data);
  }

  async getPost(id: string): Promise<MattermostPost> {
    const data = await this.call(
      () => this.http.get(`/posts/${id}`),
      `post ${id} does not exist (or was deleted)`,
    );
    return postOf(`GET /api/v4/posts/${id}`, data);
  }

  /** Uploads one file into the channel; returns its id for `file_ids`. */
  async uploadFile(channelId: string, filename: string, content: string): Promise<string> {
    const form = new FormData();
    form.append('channel_id', channelId);
    form.append('files', new Blob([content], { type: 'text/plain' }), filename);
    const result = await this.call<{ file_infos?: unknown[] }>(() => this.http.post('/files', form));
    const file = Array.isArray(result?.file_infos) ? result.file_infos[0] : undefined;
    return replyFields('mattermost', 'POST /api/v4/files', file, { id: 'string' }).id;
  }

  /** Up to `limit` recent posts of a channel, newest first. */
  async recentPosts(channelId: string, limit: number): Promise<MattermostPost[]> {
    const posts: MattermostPost[] = [];
    for (let page = 0; posts.length < limit; page++) {
      const perPage = Math.min(MAX_PER_PAGE, limit);
      const list = await this.call<PostList>(() =>
        this.http.get(`/channels/${channelId}/posts`, { params: { page, per_page: perPage } }),
      );
      const batch = postsOf(`GET /api/v4/channels/${channelId}/posts`, list);
      posts.push(...batch);
      if (batch.length < perPage) break;
    }
    return posts.slice(0, limit);
  }

  /** Every post of the thread rooted at `rootId`. */
  async thread(rootId: string): Promise<MattermostPost[]> {
    const list = await this.call<PostList>(
      () => this.http.get(`/posts/${rootId}/thread`),
      `thread ${rootId} does not exist (or its root post was deleted)`,
    );
    return postsOf(`GET /api/v4/posts/${rootId}/thread`, list);
  }
}

/** A post the plugin sent or reads: its id and channel are what it relies on. */
function postOf(request: string, data: unknown): MattermostPost {
  return {
    ...(data as MattermostPost),
    ...replyFields('mattermost', request, data, { id: 'string', channel_id: 'string' }),
  };
}

/** A post list (`order` of ids, `posts` by id), its posts in order; a reply of another shape fails naming it. */
function postsOf(request: string, list: unknown): MattermostPost[] {
  const { order, posts } = (list ?? {}) as Partial<PostList>;
  if (!Array.isArray(order) || typeof posts !== 'object' || posts === null)
    throw UpstreamError.permanent(`mattermost: ${request}: no order, posts in the reply`);
  // Own entries only: an id `constructor` finds nothing.
  return order
    .map((id) => (Object.hasOwn(posts, id) ? posts[id] : undefined))
    .filter((p): p is MattermostPost => typeof p?.id === 'string');
}
