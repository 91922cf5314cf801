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
  create_at?: number;
  /** When the post was last edited; 0 when never. */
  edit_at?: number;
}

/** A reaction on a post (https://developers.mattermost.com/api-documentation/#/tag/reactions). */
export interface MattermostReaction {
  user_id: string;
  post_id: string;
  emoji_name: string;
  create_at: number;
}

/** The parts of a user the approval reader reads. */
export interface MattermostUser {
  id: string;
  username: string;
  is_bot?: boolean;
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

/** Largest page GET /channels/{id}/posts and GET /groups/{id}/members hand out. */
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
  private me?: string;

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

  /** The id of the token's own account (GET /users/me), read once: the author of every post it makes. */
  async ownUserId(signal?: AbortSignal): Promise<string> {
    if (this.me === undefined) {
      const data = await this.call(() => this.http.get('/users/me', { signal }));
      this.me = replyFields('mattermost', 'GET /api/v4/users/me', data, { id: 'string' }).id;
    }
    return this.me;
  }

  async createPost(post: NewPost, signal?: AbortSignal): Promise<MattermostPost> {
    const data = await this.call(
      () => this.http.post('/posts', post, { signal }),
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

  async getPost(id: string, signal?: AbortSignal): Promise<MattermostPost> {
    const data = await this.call(
      () => this.http.get(`/posts/${id}`, { signal }),
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
  async recentPosts(channelId: string, limit: number, signal?: AbortSignal): Promise<MattermostPost[]> {
    const posts: MattermostPost[] = [];
    for (let page = 0; posts.length < limit; page++) {
      const perPage = Math.min(MAX_PER_PAGE, limit);
      const list = await this.call<PostList>(() =>
        this.http.get(`/channels/${channelId}/posts`, { params: { page, per_page: perPage }, signal }),
      );
      const batch = postsOf(`GET /api/v4/channels/${channelId}/posts`, list);
      posts.push(...batch);
      if (batch.length < perPage) break;
    }
    return posts.slice(0, limit);
  }

  /** Every post of the thread rooted at `rootId`. */
  async thread(rootId: string, signal?: AbortSignal): Promise<MattermostPost[]> {
    const list = await this.call<PostList>(
      () => this.http.get(`/posts/${rootId}/thread`, { signal }),
      `thread ${rootId} does not exist (or its root post was deleted)`,
    );
    return postsOf(`GET /api/v4/posts/${rootId}/thread`, list);
  }

  /** Changes only the fields given (PUT /posts/{id}/patch); a bot can patch its own posts. */
  async patchPost(
    id: string,
    change: { message: string; props?: Record<string, unknown> },
    signal?: AbortSignal,
  ): Promise<MattermostPost> {
    const data = await this.call(
      () => this.http.put(`/posts/${id}/patch`, change, { signal }),
      `post ${id} does not exist (or was deleted)`,
    );
    return postOf(`PUT /api/v4/posts/${id}/patch`, data);
  }

  /** Every reaction on a post (the API returns them all in one list). */
  async reactions(postId: string, signal?: AbortSignal): Promise<MattermostReaction[]> {
    const data = await this.call<unknown>(
      () => this.http.get(`/posts/${postId}/reactions`, { signal }),
      `post ${postId} does not exist (or was deleted)`,
    );
    // An empty list may come as `null` from older servers.
    const list = data === null || data === '' ? [] : data;
    if (!Array.isArray(list))
      throw UpstreamError.permanent(
        `mattermost: GET /api/v4/posts/${postId}/reactions: no list in the reply`,
      );
    return list.filter(
      (r): r is MattermostReaction => typeof r?.user_id === 'string' && typeof r?.emoji_name === 'string',
    );
  }

  /** The users of these ids (POST /users/ids) or usernames (POST /users/usernames); unknown ones are left out. */
  async users(by: 'ids' | 'usernames', keys: string[], signal?: AbortSignal): Promise<MattermostUser[]> {
    if (keys.length === 0) return [];
    const data = await this.call<unknown>(() => this.http.post(`/users/${by}`, keys, { signal }));
    return usersOf(`POST /api/v4/users/${by}`, data);
  }

  /**
   * The user with this email (GET /users/email/{email}); undefined when none has it. A server whose Privacy
   * settings hide emails (Show Email Address off) answers 403 to any token but a system admin's.
   */
  async userByEmail(email: string, signal?: AbortSignal): Promise<MattermostUser | undefined> {
    const request = 'GET /api/v4/users/email/{email}';
    try {
      const { data } = await this.http.get(`/users/email/${encodeURIComponent(email)}`, { signal });
      return usersOf(request, [data])[0];
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return undefined;
      throw withHint(err, {
        ...this.hints,
        403: "the server hides users' emails from the bot (System Console › Privacy › Show Email Address), so the workflow's creator cannot be matched",
      });
    }
  }

  /** Every member of a user group (GET /groups/{id}/members, page by page). */
  async groupMembers(groupId: string, signal?: AbortSignal): Promise<MattermostUser[]> {
    const members: MattermostUser[] = [];
    for (let page = 0; ; page++) {
      const request = `GET /api/v4/groups/${groupId}/members`;
      const data = await this.call<{ members?: unknown }>(
        () =>
          this.http.get(`/groups/${groupId}/members`, {
            params: { page, per_page: MAX_PER_PAGE },
            signal,
          }),
        `user group ${groupId} does not exist, or the bot may not read it (custom groups need a Professional licence)`,
      );
      const batch = usersOf(request, data?.members);
      members.push(...batch);
      if (batch.length < MAX_PER_PAGE) return members;
    }
  }
}

function usersOf(request: string, data: unknown): MattermostUser[] {
  if (!Array.isArray(data))
    throw UpstreamError.permanent(`mattermost: ${request}: no list of users in the reply`);
  return data.filter(
    (u): u is MattermostUser => typeof u?.id === 'string' && typeof u?.username === 'string',
  );
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
