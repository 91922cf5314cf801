import { TeamsBotStandIn, type BotApp, type BotTeam } from '../stand-ins/teams/teams-bot.stand-in.js';
import { TeamsWorkflowStandIn, type TeamsFlow } from '../stand-ins/teams/teams-workflow.stand-in.js';

export interface TeamsDemo {
  teams: TeamsWorkflowStandIn;
  flow: TeamsFlow;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local Power Automate with one Teams Workflows webhook. */
export async function startTeamsDemo(): Promise<TeamsDemo> {
  const teams = await new TeamsWorkflowStandIn().start();
  const { flow, url } = teams.addFlow();
  return { teams, flow, env: { TEAMS_WEBHOOK_URL: url }, close: () => teams.close() };
}

/** The #deploys channel of the demo team, as the bot example names it (a stand-in id in Teams' format). */
export const DEMO_TEAMS_CHANNEL = '19:5c1f0e2a9b7d4e3f8a6c0d1b2e3f4a5b@thread.tacv2';

export interface TeamsBotDemo {
  bot: TeamsBotStandIn;
  app: BotApp;
  /** Team "Engineering" with the bot installed; its channel is DEMO_TEAMS_CHANNEL. */
  team: BotTeam;
  channel: string;
  /** Team "Finance", which has not installed the bot. */
  other: BotTeam;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local Entra ID and Bot Framework connector: a multi-tenant bot installed in one team and not in another. */
export async function startTeamsBotDemo(): Promise<TeamsBotDemo> {
  const bot = await new TeamsBotStandIn().start();
  const app = bot.registerBot();
  const team = bot.addTeam('Engineering', { channels: [DEMO_TEAMS_CHANNEL] });
  const other = bot.addTeam('Finance', { botInstalled: false });
  return {
    bot,
    app,
    team,
    channel: team.channels[0],
    other,
    env: {
      TEAMS_BOT_APP_ID: app.appId,
      TEAMS_BOT_APP_PASSWORD: app.password,
      TEAMS_BOT_SERVICE_URL: bot.serviceUrl,
      TEAMS_BOT_LOGIN_URL: bot.url,
    },
    close: () => bot.close(),
  };
}
