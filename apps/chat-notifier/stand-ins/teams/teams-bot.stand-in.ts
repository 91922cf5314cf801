import { randomBytes, randomUUID } from 'node:crypto';
import { ProviderStandIn, type StandInRequest, type StandInResponse } from '@app/local-agent';

/** An app registered in Microsoft Entra ID and as an Azure Bot with the Microsoft Teams channel on. */
export interface BotApp {
  appId: string;
  password: string;
  /** Single-tenant bots sign in at their tenant; multi-tenant ones at botframework.com. */
  tenant: string;
}

export interface BotTeam {
  name: string;
  channels: string[];
  /** Whether the bot's Teams app is installed in the team (the bot is in the channels' rosters). */
  botInstalled: boolean;
}

/** A message in a channel: a thread root, or a reply in the thread of `root`. */
export interface ChannelActivity {
  id: string;
  channel: string;
  root: string;
  appId: string;
  attachments: Array<{ contentType?: string; content?: Record<string, unknown> }>;
  edits: number;
}

/** Teams refuses messages above about 28 KB (413 MessageSizeTooBig). */
const MAX_MESSAGE_BYTES = 28 * 1024;
export const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';

const connectorError = (status: number, code: string, message: string): StandInResponse => ({
  status,
  body: { error: { code, message } },
});

/** Entra ID's OAuth error body (AADSTS codes), with the trace ids it always carries. */
function loginError(status: number, error: string, code: number, description: string): StandInResponse {
  const trace = randomUUID();
  const correlation = randomUUID();
  const timestamp = new Date().toISOString().replace('T', ' ').replace(/\..*$/, 'Z');
  return {
    status,
    body: {
      error,
      error_description: `AADSTS${code}: ${description}\r\nTrace ID: ${trace}\r\nCorrelation ID: ${correlation}\r\nTimestamp: ${timestamp}`,
      error_codes: [code],
      timestamp,
      trace_id: trace,
      correlation_id: correlation,
      error_uri: `https://login.microsoftonline.com/error?code=${code}`,
    },
  };
}

/**
 * Microsoft Entra ID's token endpoint and the Bot Framework connector as Teams runs it, from Microsoft's
 * public docs (Bot Connector REST API reference; Teams "proactive messages" and "status codes from bot
 * conversational APIs"):
 * - `POST /{tenant}/oauth2/v2.0/token`, a form with `grant_type=client_credentials`, `client_id`,
 *   `client_secret`, `scope=https://api.botframework.com/.default` → `{token_type, expires_in,
 *   ext_expires_in, access_token}`; a wrong secret is 401 `invalid_client` (AADSTS7000215), an unknown app
 *   (or the wrong tenant) 400 `unauthorized_client` (AADSTS700016), another scope 400 `invalid_scope`;
 * - under the service URL (`/teams/`): `POST v3/conversations` (a channel thread: `isGroup`,
 *   `channelData.channel.id`, `activity` → 201 `{id: "<channel>;messageid=<id>", activityId}`), `POST
 *   v3/conversations/{id}/activities[/{activityId}]` (201 `{id}`), `PUT …/activities/{activityId}` (200
 *   `{id}`), each with `Authorization: Bearer <token>` (else 401 `{message}`); errors are `{error: {code,
 *   message}}`: 404 `ConversationNotFound` / `ActivityNotFoundInConversation`, 403
 *   `BotNotInConversationRoster` when the bot's app is not installed in the team, 413 `MessageSizeTooBig`,
 *   400 `BadArgument`, 429 `Throttled` with Retry-After (`throttleNext`). Activity ids are epoch
 *   milliseconds, as in Teams channels.
 */
export class TeamsBotStandIn extends ProviderStandIn {
  readonly apps = new Map<string, BotApp>();
  readonly teams = new Map<string, BotTeam>();
  readonly activities = new Map<string, ChannelActivity>();
  private readonly tokens = new Map<string, { appId: string; expiresAt: number }>();
  tokenLifetimeSeconds = 3599;
  /** Every access token handed out, in order. */
  readonly issued: string[] = [];
  private lastId = 0;

  constructor() {
    super('teams-bot', () => connectorError(404, 'NotFound', 'The requested resource was not found.'));
    this.route('POST', '/:tenant/oauth2/v2.0/token', (req) => this.token(req));
    this.route('POST', '/teams/v3/conversations', (req) =>
      this.authorized(req, (app) => this.createConversation(req, app)),
    );
    this.route('POST', '/teams/v3/conversations/:conversation/activities', (req) =>
      this.authorized(req, (app) => this.send(req, app)),
    );
    this.route('POST', '/teams/v3/conversations/:conversation/activities/:activity', (req) =>
      this.authorized(req, (app) => this.send(req, app)),
    );
    this.route('PUT', '/teams/v3/conversations/:conversation/activities/:activity', (req) =>
      this.authorized(req, (app) => this.update(req, app)),
    );
  }

  /** The connector's service URL for the sidecar (TEAMS_BOT_SERVICE_URL). */
  get serviceUrl(): string {
    return `${this.url}/teams/`;
  }

  registerBot(tenant = 'botframework.com'): BotApp {
    const app: BotApp = {
      appId: randomUUID(),
      password: `${randomBytes(3).toString('hex')}~${randomBytes(24).toString('base64url')}`,
      tenant,
    };
    this.apps.set(app.appId, app);
    return app;
  }

  /** A team with channels (ids as Teams makes them: `19:<32 hex>@thread.tacv2`). */
  addTeam(name: string, options: { channels?: string[]; botInstalled?: boolean } = {}): BotTeam {
    const team: BotTeam = {
      name,
      channels: options.channels ?? [`19:${randomBytes(16).toString('hex')}@thread.tacv2`],
      botInstalled: options.botInstalled ?? true,
    };
    this.teams.set(name, team);
    return team;
  }

  /** Every token handed out so far stops working (as after a credential change). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  /** The connector refuses every token (an app without an Azure Bot, or with the Teams channel off). */
  connectorRefuses = false;

  /** The messages of a channel, in order. */
  messages(channel: string): ChannelActivity[] {
    return [...this.activities.values()].filter((a) => a.channel === channel);
  }

  /** The next `times` connector calls get 429 Throttled with Retry-After. */
  throttleNext(retryAfterSeconds: number, times = 1): void {
    this.server.faults.add(
      {
        kind: 'rate-limit',
        retryAfterSeconds,
        body: { error: { code: 'Throttled', message: 'Too many requests.' } },
      },
      { times, match: (r) => r.path.startsWith('/teams/v3/conversations') },
    );
  }

  private token(req: StandInRequest): StandInResponse {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return loginError(
        400,
        'invalid_request',
        900144,
        "The request body must contain the following parameter: 'grant_type'.",
      );
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    if (form.grant_type !== 'client_credentials')
      return loginError(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
    const app = form.client_id ? this.apps.get(form.client_id) : undefined;
    if (!app || app.tenant !== req.params.tenant)
      return loginError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${form.client_id ?? ''}' was not found in the directory '${req.params.tenant}'.`,
      );
    if (form.client_secret !== app.password)
      return loginError(
        401,
        'invalid_client',
        7000215,
        `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${app.appId}'.`,
      );
    if (form.scope !== BOT_FRAMEWORK_SCOPE)
      return loginError(
        400,
        'invalid_scope',
        70011,
        `The provided value for the input parameter 'scope' is not valid.`,
      );
    const token = `eyJ0eXAiOiJKV1QifQ.${randomBytes(48).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
    this.tokens.set(token, { appId: app.appId, expiresAt: Date.now() + this.tokenLifetimeSeconds * 1000 });
    this.issued.push(token);
    return {
      body: {
        token_type: 'Bearer',
        expires_in: this.tokenLifetimeSeconds,
        ext_expires_in: this.tokenLifetimeSeconds,
        access_token: token,
      },
    };
  }

  private authorized(req: StandInRequest, handle: (app: BotApp) => StandInResponse): StandInResponse {
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const grant = bearer ? this.tokens.get(bearer) : undefined;
    if (!grant || grant.expiresAt <= Date.now() || this.connectorRefuses)
      return { status: 401, body: { message: 'Authorization has been denied for this request.' } };
    if (
      !String(req.headers['content-type'] ?? '').startsWith('application/json') ||
      typeof req.body !== 'object'
    )
      return connectorError(400, 'BadArgument', 'The request body must be a JSON object.');
    if (Buffer.byteLength(req.text) > MAX_MESSAGE_BYTES)
      return connectorError(413, 'MessageSizeTooBig', 'Message size too large.');
    return handle(this.apps.get(grant.appId)!);
  }

  /** The channel a conversation id names and the thread root after `;messageid=`, or an error. */
  private conversation(id: string): { channel: string; root?: string } | { error: StandInResponse } {
    const [channel, ...rest] = id.split(';');
    const root = rest.length === 1 ? /^messageid=([0-9]+)$/.exec(rest[0])?.[1] : undefined;
    const team = [...this.teams.values()].find((t) => t.channels.includes(channel));
    if (!team || (rest.length > 0 && root === undefined))
      return { error: connectorError(404, 'ConversationNotFound', 'Conversation not found.') };
    if (!team.botInstalled)
      return {
        error: connectorError(
          403,
          'BotNotInConversationRoster',
          "The bot isn't part of the conversation roster.",
        ),
      };
    if (root !== undefined && this.activities.get(root)?.channel !== channel)
      return { error: connectorError(404, 'ConversationNotFound', 'Conversation not found.') };
    return { channel, root };
  }

  private messageActivity(body: unknown): ChannelActivity['attachments'] | StandInResponse {
    const a = body as { type?: unknown; text?: unknown; attachments?: unknown } | undefined;
    if (a?.type !== 'message') return connectorError(400, 'BadArgument', 'Activity type must be message.');
    const attachments = Array.isArray(a.attachments) ? (a.attachments as ChannelActivity['attachments']) : [];
    if (attachments.length === 0 && typeof a.text !== 'string')
      return connectorError(400, 'BadArgument', 'Message must have text or attachments.');
    const cards = attachments.filter((c) => c.contentType === 'application/vnd.microsoft.card.adaptive');
    if (cards.some((c) => c.content?.type !== 'AdaptiveCard'))
      return connectorError(400, 'BadArgument', 'Invalid Adaptive Card attachment.');
    return attachments;
  }

  private nextId(): string {
    this.lastId = Math.max(this.lastId + 1, Date.now());
    return String(this.lastId);
  }

  private createConversation(req: StandInRequest, app: BotApp): StandInResponse {
    const p = req.body as {
      isGroup?: unknown;
      channelData?: { channel?: { id?: unknown } };
      activity?: unknown;
    };
    const channelId = p.channelData?.channel?.id;
    if (p.isGroup !== true || typeof channelId !== 'string')
      return connectorError(400, 'BadSyntax', 'Incorrect conversation creation parameters');
    const where = this.conversation(channelId);
    if ('error' in where) return where.error;
    const attachments = this.messageActivity(p.activity);
    if (!Array.isArray(attachments)) return attachments;
    const id = this.nextId();
    this.activities.set(id, {
      id,
      channel: where.channel,
      root: id,
      appId: app.appId,
      attachments,
      edits: 0,
    });
    return {
      status: 201,
      body: { id: `${where.channel};messageid=${id}`, activityId: id, serviceUrl: this.serviceUrl },
    };
  }

  private send(req: StandInRequest, app: BotApp): StandInResponse {
    const where = this.conversation(req.params.conversation);
    if ('error' in where) return where.error;
    const replyTo = req.params.activity;
    if (replyTo !== undefined && this.activities.get(replyTo)?.channel !== where.channel)
      return connectorError(404, 'ActivityNotFoundInConversation', 'Conversation not found.');
    const attachments = this.messageActivity(req.body);
    if (!Array.isArray(attachments)) return attachments;
    const id = this.nextId();
    const root = where.root ?? (replyTo ? this.activities.get(replyTo)!.root : id);
    this.activities.set(id, { id, channel: where.channel, root, appId: app.appId, attachments, edits: 0 });
    return { status: 201, body: { id } };
  }

  private update(req: StandInRequest, app: BotApp): StandInResponse {
    const where = this.conversation(req.params.conversation);
    if ('error' in where) return where.error;
    const activity = this.activities.get(req.params.activity);
    if (!activity || activity.channel !== where.channel)
      return connectorError(404, 'ActivityNotFoundInConversation', 'Conversation not found.');
    if (activity.appId !== app.appId)
      return connectorError(403, 'NotEnoughPermissions', 'A bot can only update its own messages.');
    const attachments = this.messageActivity(req.body);
    if (!Array.isArray(attachments)) return attachments;
    activity.attachments = attachments;
    activity.edits++;
    return { status: 200, body: { id: activity.id } };
  }
}
