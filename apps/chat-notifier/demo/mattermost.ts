import { APPROVAL_MARKER_PROP } from '../src/providers/mattermost/mattermost-approval-channel.js';
import { MattermostStandIn } from '../stand-ins/mattermost/mattermost.stand-in.js';
import type { MmChannel, MmTeam, MmUser } from '../stand-ins/mattermost/mattermost-state.js';

/** The access token of the demo bot (a stand-in value, not a real Mattermost token). */
export const DEMO_MATTERMOST_TOKEN = 'mmdemo0bot0token0argoexecutorplugins';

/** The channel of mattermost-approval-gate.yaml (a fixed ID: the example names it). */
export const DEMO_MATTERMOST_APPROVALS_CHANNEL = 'approvals0demo0channel0001';

export interface MattermostDemoServer {
  mm: MattermostStandIn;
  team: MmTeam;
  bot: MmUser;
  alice: MmUser;
  builds: MmChannel;
  deploys: MmChannel;
  /** A channel of the team the bot is not a member of. */
  general: MmChannel;
  /** ~approvals, where the approval example asks. */
  approvals: MmChannel;
  /** Sidecar env pointing at the stand-in. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local Mattermost server with team `eng`: ~builds, ~deploys and ~approvals with the bot as a member, ~general
 * without. alice approves each approval request with ✅ on its second read.
 */
export async function startMattermostDemo(): Promise<MattermostDemoServer> {
  const mm = await new MattermostStandIn().start();
  const bot = mm.addBot('argo-bot', DEMO_MATTERMOST_TOKEN);
  const alice = mm.state.addUser('alice');
  const team = mm.state.addTeam('eng', [bot, alice]);
  mm.script.each(2, (post) => {
    if (mm.state.posts.get(post)?.props?.[APPROVAL_MARKER_PROP]) mm.react(post, alice, 'white_check_mark');
  });
  return {
    mm,
    team,
    bot,
    alice,
    builds: mm.state.addChannel(team, 'builds', [bot, alice]),
    deploys: mm.state.addChannel(team, 'deploys', [bot, alice]),
    general: mm.state.addChannel(team, 'general', [alice]),
    approvals: mm.state.addChannel(team, 'approvals', [bot, alice], 'O', DEMO_MATTERMOST_APPROVALS_CHANNEL),
    env: { MATTERMOST_URL: mm.url, MATTERMOST_TOKEN: DEMO_MATTERMOST_TOKEN },
    close: () => mm.close(),
  };
}
