import {
  DiscordStandIn,
  type DiscordChannel,
  type DiscordThread,
} from '../stand-ins/discord/discord.stand-in.js';

/** The bot token of the demo (a stand-in value, not a real Discord token). */
export const DEMO_DISCORD_BOT_TOKEN = 'MTE5MDAwMDAwMDAwMDAwMDMwMQ.stand-in.demo-bot-token';
/** The channel and the approver of discord-vote-approval.yaml (fixed IDs: an example names them). */
export const DEMO_DISCORD_APPROVALS_CHANNEL = '1190000000000000101';
export const DEMO_DISCORD_APPROVER = '1190000000000000201';

export interface DiscordDemoServer {
  discord: DiscordStandIn;
  /** The text channel of the default webhook, with a thread `deploys`. */
  builds: DiscordChannel;
  deploysThread: DiscordThread;
  /** A forum channel with its own webhook (`webhook: forum`). */
  forum: DiscordChannel;
  webhookToken: string;
  /** The bot's channel of the approval example. */
  approvals: DiscordChannel;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local Discord with a text channel (default webhook, one thread), a forum channel (webhook `forum`), and a
 * channel of the bot for approval requests, where alice approves each request with ✅ on its second read.
 */
export async function startDiscordDemo(): Promise<DiscordDemoServer> {
  const discord = await new DiscordStandIn().start();
  const builds = discord.addChannel('text');
  const forum = discord.addChannel('forum');
  const main = discord.addWebhook(builds);
  const approvals = discord.addChannel('text', DEMO_DISCORD_APPROVALS_CHANNEL);
  discord.addBot('argo', DEMO_DISCORD_BOT_TOKEN, [approvals]);
  const alice = discord.addUser('alice', { id: DEMO_DISCORD_APPROVER });
  discord.script.each(2, (message) => discord.react(message, alice, '✅'));
  return {
    discord,
    builds,
    deploysThread: discord.addThread(builds, 'deploys'),
    forum,
    webhookToken: main.token,
    approvals,
    env: {
      DISCORD_WEBHOOK_URL: main.url,
      DISCORD_FORUM_WEBHOOK_URL: discord.addWebhook(forum).url,
      DISCORD_BOT_TOKEN: DEMO_DISCORD_BOT_TOKEN,
      DISCORD_API_URL: `${discord.url}/api/v10`,
    },
    close: () => discord.close(),
  };
}
