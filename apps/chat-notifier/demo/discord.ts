import {
  DiscordStandIn,
  type DiscordChannel,
  type DiscordThread,
} from '../stand-ins/discord/discord.stand-in.js';

export interface DiscordDemoServer {
  discord: DiscordStandIn;
  /** The text channel of the default webhook, with a thread `deploys`. */
  builds: DiscordChannel;
  deploysThread: DiscordThread;
  /** A forum channel with its own webhook (`webhook: forum`). */
  forum: DiscordChannel;
  webhookToken: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local Discord with a text channel (default webhook, one thread) and a forum channel (webhook `forum`). */
export async function startDiscordDemo(): Promise<DiscordDemoServer> {
  const discord = await new DiscordStandIn().start();
  const builds = discord.addChannel('text');
  const forum = discord.addChannel('forum');
  const main = discord.addWebhook(builds);
  return {
    discord,
    builds,
    deploysThread: discord.addThread(builds, 'deploys'),
    forum,
    webhookToken: main.token,
    env: { DISCORD_WEBHOOK_URL: main.url, DISCORD_FORUM_WEBHOOK_URL: discord.addWebhook(forum).url },
    close: () => discord.close(),
  };
}
