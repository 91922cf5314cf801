import {
  credential,
  multipartParts,
  ProviderStandIn,
  randomId,
  type StandInRequest,
  type StandInResponse,
} from '@app/local-agent';
import { ApprovalScript } from '../approval-script.js';
import { MattermostState, type MmChannel, type MmPost, type MmUser } from './mattermost-state.js';

/** Mattermost's error body (model.AppError as JSON). */
function appError(status: number, id: string, message: string): StandInResponse {
  return {
    status,
    body: { id, message, detailed_error: '', request_id: randomId(), status_code: status },
  };
}

const PERMISSIONS = () =>
  appError(403, 'api.context.permissions.app_error', 'You do not have the appropriate permissions.');
const INVALID_BODY = (field: string) =>
  appError(400, 'api.context.invalid_body_param.app_error', `Invalid or missing ${field} in request body.`);

/** A user as the API shows it to another user (no tokens). */
const userView = (u: MmUser) => ({ id: u.id, username: u.username, is_bot: u.isBot });

/** Defaults of GET /channels/{id}/posts and GET /groups/{id}/members (per_page is capped at 200). */
const DEFAULT_PER_PAGE = 60;
const MAX_PER_PAGE = 200;

/**
 * A local Mattermost server, REST API v4 (https://developers.mattermost.com/api-documentation/), for the calls
 * the notifier makes: channel by team and channel name, create / get / update a post, a channel's posts
 * (newest first, `page`/`per_page`), a thread, file upload (multipart `channel_id` + `files`). A bot's access
 * token goes in `Authorization: Bearer`; errors are Mattermost's AppError JSON (401 session expired, 403
 * permissions for non-members, 404 missing, 400 invalid body). `pending_post_id` deduplicates posts for
 * `pendingTtlMs` (the server's 30 s cache), as Mattermost does.
 *
 * For approval gates: a post's reactions, patching a post (its author only), users by ids, by usernames and by
 * email (403 when Privacy settings hide emails),
 * a user group's members (`page`/`per_page`), and a scripted approver (`script`) that reacts, replies, withdraws,
 * deletes or edits after the request has been read (GET /posts/{id}) a number of times.
 */
export class MattermostStandIn extends ProviderStandIn {
  readonly state = new MattermostState();
  /** How long a pending_post_id returns the post already made (Mattermost: 30 s). */
  pendingTtlMs = 30_000;
  private readonly pending = new Map<string, { postId: string; at: number }>();
  /** What people do to a request after it has been read a number of times. */
  readonly script = new ApprovalScript();
  private clock = 0;

  constructor() {
    super('mattermost', () => appError(404, 'api.no_route', 'Sorry, we could not find the page.'));
    this.route('GET', '/api/v4/teams/name/:team/channels/name/:channel', (req) =>
      this.authed(req, (user) => this.channelByName(user, req.params.team, req.params.channel)),
    )
      .route('GET', '/api/v4/users/me', (req) =>
        this.authed(req, (user) => ({ body: { id: user.id, username: user.username, is_bot: user.isBot } })),
      )
      .route('POST', '/api/v4/posts', (req) => this.authed(req, (user) => this.createPost(user, req)))
      .route('GET', '/api/v4/posts/:id', (req) =>
        this.authed(req, (user) => this.getPost(user, req.params.id)),
      )
      .route('PUT', '/api/v4/posts/:id', (req) => this.authed(req, (user) => this.updatePost(user, req)))
      .route('GET', '/api/v4/posts/:id/thread', (req) =>
        this.authed(req, (user) => this.thread(user, req.params.id)),
      )
      .route('GET', '/api/v4/channels/:id/posts', (req) =>
        this.authed(req, (user) => this.channelPosts(user, req)),
      )
      .route('POST', '/api/v4/files', (req) => this.authed(req, (user) => this.upload(user, req)))
      .route('GET', '/api/v4/posts/:id/reactions', (req) =>
        this.authed(req, (user) => this.reactionsOf(user, req.params.id)),
      )
      .route('PUT', '/api/v4/posts/:id/patch', (req) => this.authed(req, (user) => this.patchPost(user, req)))
      .route('POST', '/api/v4/users/ids', (req) =>
        this.authed(req, () => this.usersBy(req, (u, keys) => keys.has(u.id))),
      )
      .route('GET', '/api/v4/users/email/:email', (req) =>
        this.authed(req, () => this.userByEmail(req.params.email)),
      )
      .route('POST', '/api/v4/users/usernames', (req) =>
        this.authed(req, () => this.usersBy(req, (u, keys) => keys.has(u.username))),
      )
      .route('GET', '/api/v4/groups/:id/members', (req) => this.authed(req, () => this.groupMembers(req)));
  }

  /** `user` reacts to a post with `emoji` (`+1`, `-1`, `white_check_mark`, `x`, ...); again changes nothing. */
  react(postId: string, user: MmUser, emoji: string): void {
    if (
      this.state.reactions.some(
        (r) => r.post_id === postId && r.user_id === user.id && r.emoji_name === emoji,
      )
    )
      return;
    this.state.reactions.push({
      user_id: user.id,
      post_id: postId,
      emoji_name: emoji,
      create_at: this.now(),
    });
  }

  /** `user` takes a reaction back. */
  unreact(postId: string, user: MmUser, emoji: string): void {
    const i = this.state.reactions.findIndex(
      (r) => r.post_id === postId && r.user_id === user.id && r.emoji_name === emoji,
    );
    if (i >= 0) this.state.reactions.splice(i, 1);
  }

  /** `user` replies in the post's thread; returns the reply. */
  reply(postId: string, user: MmUser, message: string, props: Record<string, unknown> = {}): MmPost {
    const root = this.state.posts.get(postId)!;
    return this.addPost(user, root.channel_id, message, { root_id: postId, props });
  }

  /** A new post of `user`, stored. */
  private addPost(
    user: MmUser,
    channelId: string,
    message: string,
    fields: Partial<Pick<MmPost, 'root_id' | 'props' | 'file_ids' | 'pending_post_id'>>,
  ): MmPost {
    const now = this.now();
    const post: MmPost = {
      id: randomId(),
      create_at: now,
      update_at: now,
      edit_at: 0,
      delete_at: 0,
      user_id: user.id,
      channel_id: channelId,
      root_id: '',
      message,
      type: '',
      props: {},
      file_ids: [],
      pending_post_id: '',
      ...fields,
    };
    this.state.posts.set(post.id, post);
    return post;
  }

  /** Someone (an admin, the author) edits a post: Mattermost records when, not who. */
  edit(postId: string, message: string): void {
    const post = this.state.posts.get(postId)!;
    post.message = message;
    post.edit_at = post.update_at = this.now();
  }

  /** Someone deletes a post: it is gone from every read (404). */
  deletePost(postId: string): void {
    this.state.posts.get(postId)!.delete_at = this.now();
  }

  /** A bot account with an access token. */
  addBot(username: string, token: string): MmUser {
    const bot = this.state.addUser(username, true);
    bot.tokens.add(token);
    return bot;
  }

  /** Posts the bots created (not edits), in `channel`. */
  posts(channel: MmChannel): MmPost[] {
    return this.state.channelPosts(channel.id).reverse();
  }

  /** Successful calls of `method path` (a path prefix). */
  okCalls(method: string, path: string): number {
    return this.server.calls.filter((c) => c.method === method && c.path.startsWith(path) && c.status < 300)
      .length;
  }

  /** 429 as Mattermost's rate limiter answers it: text body, X-RateLimit-* headers and Retry-After. */
  rateLimitPosts(retryAfterSeconds: number, times = 1): void {
    this.server.faults.add(
      {
        kind: 'rate-limit',
        retryAfterSeconds,
        body: 'limit exceeded\n',
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          'X-RateLimit-Limit': '10',
          'X-RateLimit-Remaining': '0',
        },
      },
      { times, match: (r) => r.method === 'POST' && r.path === '/api/v4/posts' },
    );
  }

  private authed(req: StandInRequest, run: (user: MmUser) => StandInResponse): StandInResponse {
    const token = credential(req, 'Bearer');
    const user = token ? this.state.userByToken(token) : undefined;
    if (!user)
      return appError(
        401,
        'api.context.session_expired.app_error',
        'Invalid or expired session, please login again.',
      );
    return run(user);
  }

  private channelByName(user: MmUser, teamName: string, name: string): StandInResponse {
    const team = this.state.teamByName(teamName);
    if (!team)
      return appError(404, 'app.team.get_by_name.missing.app_error', 'Unable to find the existing team.');
    if (!team.members.has(user.id)) return PERMISSIONS();
    const channel = [...this.state.channels.values()].find((c) => c.teamId === team.id && c.name === name);
    if (!channel || (channel.type === 'P' && !channel.members.has(user.id)))
      return appError(
        404,
        'app.channel.get_by_name.missing.app_error',
        'Unable to find the existing channel.',
      );
    return {
      body: {
        id: channel.id,
        team_id: team.id,
        name: channel.name,
        display_name: channel.name,
        type: channel.type,
      },
    };
  }

  private createPost(user: MmUser, req: StandInRequest): StandInResponse {
    const body = req.body as Partial<MmPost> | undefined;
    if (!body || typeof body.channel_id !== 'string' || body.channel_id === '')
      return INVALID_BODY('channel_id');
    const channel = this.state.channels.get(body.channel_id);
    if (!channel || !channel.members.has(user.id)) return PERMISSIONS();
    const pendingId = typeof body.pending_post_id === 'string' ? body.pending_post_id : '';
    if (pendingId) {
      const seen = this.pending.get(pendingId);
      if (seen && Date.now() - seen.at < this.pendingTtlMs) {
        const earlier = this.state.posts.get(seen.postId);
        if (earlier) return { status: 201, body: earlier };
      }
    }
    const rootId = typeof body.root_id === 'string' ? body.root_id : '';
    if (rootId) {
      const root = this.state.posts.get(rootId);
      if (!root || root.channel_id !== channel.id || root.root_id !== '')
        return appError(400, 'api.post.create_post.root_id.app_error', 'Invalid RootId parameter.');
    }
    const fileIds = Array.isArray(body.file_ids) ? body.file_ids.map(String) : [];
    for (const id of fileIds) {
      const file = this.state.files.get(id);
      if (!file || file.user_id !== user.id || file.channel_id !== channel.id || file.post_id !== '')
        return appError(400, 'api.post.create_post.file_ids.app_error', 'Invalid file IDs.');
    }
    const post = this.addPost(user, channel.id, typeof body.message === 'string' ? body.message : '', {
      root_id: rootId,
      props: typeof body.props === 'object' && body.props !== null ? body.props : {},
      file_ids: fileIds,
      pending_post_id: pendingId,
    });
    for (const id of fileIds) this.state.files.get(id)!.post_id = post.id;
    if (pendingId) this.pending.set(pendingId, { postId: post.id, at: Date.now() });
    return { status: 201, body: post };
  }

  private readable(user: MmUser, id: string): MmPost | StandInResponse {
    const post = this.state.posts.get(id);
    if (!post || post.delete_at !== 0)
      return appError(404, 'app.post.get.app_error', 'Unable to get the post.');
    if (!this.state.channels.get(post.channel_id)?.members.has(user.id)) return PERMISSIONS();
    return post;
  }

  private getPost(user: MmUser, id: string): StandInResponse {
    this.script.read(id);
    const post = this.readable(user, id);
    return 'id' in post ? { body: post } : post;
  }

  private updatePost(user: MmUser, req: StandInRequest): StandInResponse {
    const body = req.body as Partial<MmPost> | undefined;
    if (!body || body.id !== req.params.id) return INVALID_BODY('id');
    const post = this.readable(user, req.params.id);
    if (!('id' in post)) return post;
    if (post.user_id !== user.id) return PERMISSIONS();
    // PUT replaces the editable fields: what is left out is emptied.
    post.message = typeof body.message === 'string' ? body.message : '';
    post.props = typeof body.props === 'object' && body.props !== null ? body.props : {};
    post.edit_at = post.update_at = this.now();
    return { body: post };
  }

  /** PATCH semantics: only the fields given change; only the post's author may patch it. */
  private patchPost(user: MmUser, req: StandInRequest): StandInResponse {
    const body = req.body as Partial<MmPost> | undefined;
    if (!body || typeof body !== 'object') return INVALID_BODY('patch');
    const post = this.readable(user, req.params.id);
    if (!('id' in post)) return post;
    if (post.user_id !== user.id) return PERMISSIONS();
    if (typeof body.message === 'string') post.message = body.message;
    if (typeof body.props === 'object' && body.props !== null) post.props = body.props;
    post.edit_at = post.update_at = this.now();
    return { body: post };
  }

  private reactionsOf(user: MmUser, id: string): StandInResponse {
    const post = this.readable(user, id);
    if (!('id' in post)) return post;
    return { body: this.state.reactions.filter((r) => r.post_id === id) };
  }

  /** POST /users/ids and /users/usernames: a JSON list of keys; the users found, unknown keys left out. */
  private usersBy(req: StandInRequest, match: (u: MmUser, keys: Set<string>) => boolean): StandInResponse {
    if (!Array.isArray(req.body) || !req.body.every((k) => typeof k === 'string'))
      return INVALID_BODY('user_ids');
    const keys = new Set(req.body as string[]);
    return { body: [...this.state.users.values()].filter((u) => match(u, keys)).map(userView) };
  }

  /**
   * GET /users/email/{email}: the user with that email (compared lower-cased, as Mattermost stores it); 403 when
   * the server hides emails (Show Email Address off; the stand-in's tokens are no system admin's), 404 for none.
   */
  private userByEmail(email: string): StandInResponse {
    if (!this.state.showEmailAddress)
      return appError(
        403,
        'api.user.get_user_by_email.permissions.app_error',
        'Unable to get user by email.',
      );
    const user = [...this.state.users.values()].find((u) => u.email === email.toLowerCase());
    if (!user) return appError(404, 'app.user.missing_account.const', 'Unable to find the user.');
    return { body: userView(user) };
  }

  private groupMembers(req: StandInRequest): StandInResponse {
    const group = this.state.groups.get(req.params.id);
    if (!group) return appError(404, 'app.group.no_rows', 'Unable to find an existing group.');
    const page = Number(req.query.get('page') ?? 0);
    const perPage = Math.min(MAX_PER_PAGE, Number(req.query.get('per_page') ?? DEFAULT_PER_PAGE));
    const members = [...group.members].map((id) => this.state.users.get(id)!);
    return {
      body: {
        members: members.slice(page * perPage, (page + 1) * perPage).map(userView),
        total_member_count: members.length,
      },
    };
  }

  private list(posts: MmPost[]): StandInResponse {
    return {
      body: {
        order: posts.map((p) => p.id),
        posts: Object.fromEntries(posts.map((p) => [p.id, p])),
        next_post_id: '',
        prev_post_id: '',
        has_next: false,
      },
    };
  }

  private thread(user: MmUser, id: string): StandInResponse {
    const root = this.readable(user, id);
    if (!('id' in root)) return root;
    const rootId = root.root_id || root.id;
    const posts = this.state
      .channelPosts(root.channel_id)
      .filter((p) => p.id === rootId || p.root_id === rootId);
    return this.list(posts);
  }

  private channelPosts(user: MmUser, req: StandInRequest): StandInResponse {
    const channel = this.state.channels.get(req.params.id);
    if (!channel || !channel.members.has(user.id)) return PERMISSIONS();
    const page = Number(req.query.get('page') ?? 0);
    const perPage = Math.min(MAX_PER_PAGE, Number(req.query.get('per_page') ?? DEFAULT_PER_PAGE));
    return this.list(this.state.channelPosts(channel.id).slice(page * perPage, (page + 1) * perPage));
  }

  private upload(user: MmUser, req: StandInRequest): StandInResponse {
    const parts = multipartParts(req);
    if (!parts)
      return appError(400, 'api.file.upload_file.incorrect_content_type.app_error', 'Invalid content type.');
    const channelId = parts.find((p) => p.name === 'channel_id')?.content;
    const files = parts.filter((p) => p.name === 'files' && p.filename !== undefined);
    if (!channelId) return INVALID_BODY('channel_id');
    if (files.length === 0) return appError(400, 'api.file.upload_file.no_file.app_error', 'Missing files.');
    const channel = this.state.channels.get(channelId);
    if (!channel || !channel.members.has(user.id)) return PERMISSIONS();
    const infos = files.map((f) => {
      const file = {
        id: randomId(),
        user_id: user.id,
        channel_id: channel.id,
        post_id: '',
        name: f.filename!,
        size: Buffer.byteLength(f.content),
        mime_type: f.contentType ?? 'application/octet-stream',
        content: f.content,
      };
      this.state.files.set(file.id, file);
      const { content: _content, ...info } = file;
      return info;
    });
    return { status: 201, body: { file_infos: infos, client_ids: [] } };
  }

  /** Milliseconds, strictly increasing, so posts made in the same millisecond keep their order. */
  private now(): number {
    this.clock = Math.max(this.clock + 1, Date.now());
    return this.clock;
  }
}
