import { randomId } from '@app/local-agent';
export interface MmUser {
  id: string;
  username: string;
  /** Access tokens of a bot account; empty for people. */
  tokens: Set<string>;
  isBot: boolean;
  /** The account's email (Mattermost keeps it lower-cased); none for a bot. */
  email?: string;
}

export interface MmTeam {
  id: string;
  name: string;
  members: Set<string>;
}

export interface MmChannel {
  id: string;
  teamId: string;
  name: string;
  /** O open, P private. */
  type: 'O' | 'P';
  members: Set<string>;
}

export interface MmPost {
  id: string;
  create_at: number;
  update_at: number;
  edit_at: number;
  delete_at: number;
  user_id: string;
  channel_id: string;
  root_id: string;
  message: string;
  type: string;
  props: Record<string, unknown>;
  file_ids: string[];
  pending_post_id: string;
}

export interface MmReaction {
  user_id: string;
  post_id: string;
  emoji_name: string;
  create_at: number;
}

/** A custom user group (Mattermost Professional): its members, by user id. */
export interface MmGroup {
  id: string;
  name: string;
  members: Set<string>;
}

export interface MmFile {
  id: string;
  user_id: string;
  channel_id: string;
  post_id: string;
  name: string;
  size: number;
  mime_type: string;
  content: string;
}

/** The server's data: users, teams, channels, posts and files. */
export class MattermostState {
  readonly users = new Map<string, MmUser>();
  readonly teams = new Map<string, MmTeam>();
  readonly channels = new Map<string, MmChannel>();
  readonly posts = new Map<string, MmPost>();
  readonly files = new Map<string, MmFile>();
  readonly reactions: MmReaction[] = [];
  readonly groups = new Map<string, MmGroup>();

  /**
   * Privacy settings › Show Email Address: off, only a system admin may read other users' emails (and look one
   * up by email).
   */
  showEmailAddress = true;

  addUser(username: string, isBot = false, email?: string): MmUser {
    const user: MmUser = {
      id: randomId(),
      username,
      tokens: new Set(),
      isBot,
      ...(email && { email: email.toLowerCase() }),
    };
    this.users.set(user.id, user);
    return user;
  }

  addTeam(name: string, members: MmUser[]): MmTeam {
    const team: MmTeam = { id: randomId(), name, members: new Set(members.map((m) => m.id)) };
    this.teams.set(team.id, team);
    return team;
  }

  /** A channel of `team`; `id` a fixed one (an example names it), else a fresh one. */
  addChannel(
    team: MmTeam,
    name: string,
    members: MmUser[],
    type: 'O' | 'P' = 'O',
    id = randomId(),
  ): MmChannel {
    const channel: MmChannel = {
      id,
      teamId: team.id,
      name,
      type,
      members: new Set(members.map((m) => m.id)),
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  addGroup(name: string, members: MmUser[]): MmGroup {
    const group: MmGroup = { id: randomId(), name, members: new Set(members.map((m) => m.id)) };
    this.groups.set(group.id, group);
    return group;
  }

  userByToken(token: string): MmUser | undefined {
    return [...this.users.values()].find((u) => u.tokens.has(token));
  }

  teamByName(name: string): MmTeam | undefined {
    return [...this.teams.values()].find((t) => t.name === name);
  }

  /** Posts of a channel (replies included), newest first, as GET /channels/{id}/posts lists them. */
  channelPosts(channelId: string): MmPost[] {
    return [...this.posts.values()]
      .filter((p) => p.channel_id === channelId && p.delete_at === 0)
      .sort((a, b) => b.create_at - a.create_at);
  }
}
