import { MattermostStandIn } from '../stand-ins/mattermost/mattermost.stand-in.js';
import type { MmChannel, MmTeam, MmUser } from '../stand-ins/mattermost/mattermost-state.js';

/** The access token of the demo bot (a stand-in value, not a real Mattermost token). */
export const DEMO_MATTERMOST_TOKEN = 'mmdemo0bot0token0argoexecutorplugins';

export interface MattermostDemoServer {
  mm: MattermostStandIn;
  team: MmTeam;
  bot: MmUser;
  alice: MmUser;
  builds: MmChannel;
  deploys: MmChannel;
  /** A channel of the team the bot is not a member of. */
  general: MmChannel;
  /** Sidecar env pointing at the stand-in. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local Mattermost server with team `eng`: ~builds and ~deploys with the bot as a member, ~general without. */
export async function startMattermostDemo(): Promise<MattermostDemoServer> {
  const mm = await new MattermostStandIn().start();
  const bot = mm.addBot('argo-bot', DEMO_MATTERMOST_TOKEN);
  const alice = mm.state.addUser('alice');
  const team = mm.state.addTeam('eng', [bot, alice]);
  return {
    mm,
    team,
    bot,
    alice,
    builds: mm.state.addChannel(team, 'builds', [bot, alice]),
    deploys: mm.state.addChannel(team, 'deploys', [bot, alice]),
    general: mm.state.addChannel(team, 'general', [alice]),
    env: { MATTERMOST_URL: mm.url, MATTERMOST_TOKEN: DEMO_MATTERMOST_TOKEN },
    close: () => mm.close(),
  };
}
