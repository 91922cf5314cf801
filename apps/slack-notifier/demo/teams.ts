import { TeamsWorkflowStandIn, type TeamsFlow } from '../stand-in/teams/teams-workflow.stand-in.js';

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
