import { randomBytes } from 'node:crypto';

/** A Slack conversation of the stand-in workspace. */
export interface Channel {
  id: string;
  name: string;
  isPrivate: boolean;
  isArchived: boolean;
  /** User IDs (bot users included) that are members. */
  members: Set<string>;
  created: number;
  /** Every message, thread replies included, in ts order. */
  messages: Message[];
}

export interface SharedFile {
  id: string;
  name: string;
  title: string;
  size: number;
}

export interface Message {
  type: 'message';
  ts: string;
  user: string;
  bot_id?: string;
  app_id?: string;
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  /** Set on replies (the parent's ts) and on parents that have replies (their own ts). */
  thread_ts?: string;
  reply_count?: number;
  latest_reply?: string;
  files?: SharedFile[];
  upload?: boolean;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  edited?: { user: string; ts: string };
  /** Emoji reactions, each with the users who added it (in the order they did). */
  reactions?: Array<{ name: string; users: string[] }>;
  /** A deleted parent that still has replies: Slack keeps it as "This message was deleted.". */
  subtype?: 'thread_broadcast' | 'tombstone';
  /** Stand-in bookkeeping, never sent: how the message came to be (a person's: a scripted answer) and how often it was edited. */
  origin: 'chat.postMessage' | 'files.completeUploadExternal' | 'person';
  edits: number;
}

export interface Bot {
  token: string;
  userId: string;
  /** A person's user token (xoxp-): their messages are theirs, with no bot_id or app_id. */
  person?: boolean;
  botId: string;
  appId: string;
  team: Team;
  scopes: Set<string>;
  revoked: boolean;
}

export interface Upload {
  fileId: string;
  filename: string;
  length: number;
  bot: Bot;
  /** The bytes received at the upload URL (undefined until then). */
  content?: string;
  /** Whether the upload request carried an Authorization header (it needs none: the URL is pre-signed). */
  sentAuthorization?: boolean;
  completions: number;
}

export const DEFAULT_BOT_SCOPES = [
  'chat:write',
  'channels:read',
  'groups:read',
  'channels:history',
  'groups:history',
  'files:write',
];

const ID_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

export function slackId(prefix: string): string {
  const bytes = randomBytes(10);
  return prefix + [...bytes].map((b) => ID_CHARS[b % ID_CHARS.length]).join('');
}

/** Orders `1712345678.000002` before `1712345678.000010` (compared as integers, not floats). */
export function compareTs(a: string, b: string): number {
  const [as, au = '0'] = a.split('.');
  const [bs, bu = '0'] = b.split('.');
  const ds = BigInt(as) - BigInt(bs);
  if (ds !== 0n) return ds < 0n ? -1 : 1;
  const du = BigInt(au.padEnd(6, '0')) - BigInt(bu.padEnd(6, '0'));
  return du === 0n ? 0 : du < 0n ? -1 : 1;
}

/** One Slack workspace (team): channels, user groups, humans, and a clock that hands out unique message ts. */
export class Team {
  readonly id = slackId('T');
  readonly channels = new Map<string, Channel>();
  readonly userGroups = new Map<string, { id: string; handle: string; users: string[] }>();
  readonly users = new Map<string, { id: string; name: string; isBot: boolean; email?: string }>();
  /** The last ts handed out, in microseconds. */
  private lastMicros = 0;

  constructor(readonly domain: string) {}

  addChannel(
    name: string,
    options: { private?: boolean; archived?: boolean; members?: string[] } = {},
  ): Channel {
    const channel: Channel = {
      id: slackId('C'),
      name,
      isPrivate: options.private ?? false,
      isArchived: options.archived ?? false,
      members: new Set(options.members ?? []),
      created: Math.floor(Date.now() / 1000),
      messages: [],
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** A person (or, with `bot`, an app's bot user: users.info says is_bot), with the email of their profile. */
  addUser(name: string, id = slackId('U'), options: { bot?: boolean; email?: string } = {}): string {
    this.users.set(id, {
      id,
      name,
      isBot: options.bot ?? false,
      ...(options.email && { email: options.email }),
    });
    return id;
  }

  addUserGroup(handle: string, users: string[] = [], id = slackId('S')): string {
    this.userGroups.set(id, { id, handle, users });
    return id;
  }

  /** A channel by ID, or by name (`#builds`, `builds`) as chat.postMessage allows. */
  findChannel(ref: string, byName = false): Channel | undefined {
    const byId = this.channels.get(ref);
    if (byId || !byName) return byId;
    const name = ref.replace(/^#/, '');
    return [...this.channels.values()].find((c) => c.name === name);
  }

  channelByName(name: string): Channel {
    const channel = this.findChannel(name, true);
    if (!channel) throw new Error(`stand-in: no channel ${name}`);
    return channel;
  }

  /** The time of a new message, as Slack writes it (seconds.microseconds), unique in the workspace. */
  nextTs(): string {
    this.lastMicros = Math.max(Date.now() * 1000, this.lastMicros + 1);
    return `${Math.floor(this.lastMicros / 1e6)}.${String(this.lastMicros % 1e6).padStart(6, '0')}`;
  }
}
