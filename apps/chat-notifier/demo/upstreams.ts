import type { DemoContext, DemoUpstreams } from '@app/local-agent';
import { APPROVAL_SCOPES, SlackApiStandIn } from '../stand-ins/slack/slack-api.stand-in.js';
import { startDiscordDemo } from './discord.js';
import { startEmailDemo } from './email.js';
import { startGithubDemo } from './github.js';
import { startGoogleChatDemo } from './google-chat.js';
import { startJiraDemo } from './jira.js';
import { startMattermostDemo } from './mattermost.js';
import { startPagerDutyDemo } from './pagerduty.js';
import { startServicenowDemo } from './servicenow.js';
import { startTeamsBotDemo, startTeamsDemo } from './teams.js';
import type { Bot, Channel, Team } from '../stand-ins/slack/slack-state.js';

/** The bot token of the demo workspace (a stand-in value, not a real Slack token). */
export const DEMO_BOT_TOKEN = 'xoxb-demo-0000000000-0000000000000-argoexecutorpluginsdemo';
/** The user group the examples page on failure (`mentions: S0ONCALL01`). */
export const DEMO_ONCALL_GROUP = 'S0ONCALL01';
/** The user group of the approval examples (`approvers: ['@release-managers']`): alice. */
export const DEMO_RELEASE_MANAGERS = 'S0RELEASE1';

export interface SlackDemoWorkspace {
  slack: SlackApiStandIn;
  team: Team;
  bot: Bot;
  builds: Channel;
  deploys: Channel;
  /** Sidecar env pointing at the stand-in. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local Slack workspace for the demo and the tests: #builds and #deploys with the app as a member, a private
 * #release-managers it is not in, an archived #old-builds, two people, the @oncall and @release-managers user
 * groups. The app has the notifier's scopes; `withApprovalScopes` adds an approval gate's.
 */
export async function startSlackDemoWorkspace(): Promise<SlackDemoWorkspace> {
  const slack = await new SlackApiStandIn().start();
  const team = slack.addTeam('argo-demo');
  const bot = slack.addBot(team, DEMO_BOT_TOKEN);
  const alice = team.addUser('alice', 'U0ALICE001', { email: 'alice@example.com' });
  const bob = team.addUser('bob', 'U0BOB00001');
  team.addUserGroup('oncall', [alice, bob], DEMO_ONCALL_GROUP);
  team.addUserGroup('release-managers', [alice], DEMO_RELEASE_MANAGERS);
  const builds = team.addChannel('builds', { members: [bot.userId, alice, bob] });
  const deploys = team.addChannel('deploys', { members: [bot.userId, alice] });
  team.addChannel('release-managers', { private: true, members: [alice] });
  team.addChannel('old-builds', { archived: true, members: [bot.userId] });
  team.addChannel('general', { members: [alice, bob] });
  return {
    slack,
    team,
    bot,
    builds,
    deploys,
    env: { SLACK_BOT_TOKEN: DEMO_BOT_TOKEN, SLACK_API_URL: slack.apiUrl },
    close: () => slack.close(),
  };
}

/** The workspace's app also gets the scopes an approval gate needs (reactions, user groups, users). */
export function withApprovalScopes(ws: SlackDemoWorkspace): SlackDemoWorkspace {
  for (const scope of APPROVAL_SCOPES) ws.bot.scopes.add(scope);
  return ws;
}

/** Used by `npm run demo`: a stand-in per provider, and the sidecar env that points the plugin at them. */
export async function startDemoUpstreams(_context?: DemoContext): Promise<DemoUpstreams> {
  const slackWorkspace = withApprovalScopes(await startSlackDemoWorkspace());
  // The approval examples' approver: alice approves each request on its second poll.
  slackWorkspace.slack.approverScript = [{ afterPolls: 2, user: 'U0ALICE001', react: 'white_check_mark' }];
  const all = [
    slackWorkspace,
    await startMattermostDemo(),
    await startDiscordDemo(),
    await startPagerDutyDemo(),
    await startGoogleChatDemo(),
    await startTeamsDemo(),
    await startTeamsBotDemo(),
    await startEmailDemo(),
    await startGithubDemo(),
    await startJiraDemo(),
    await startServicenowDemo(),
  ];
  return {
    env: Object.assign({}, ...all.map((u) => u.env)) as Record<string, string>,
    close: async () => {
      await Promise.all(all.map((u) => u.close()));
    },
  };
}
