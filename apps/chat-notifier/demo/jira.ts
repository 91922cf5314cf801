import { JiraStandIn, type JiraUser } from '../stand-ins/jira/jira.stand-in.js';

/** The API token of the demo's Jira account (a stand-in value, not a real Atlassian token). */
export const DEMO_JIRA_API_TOKEN = 'ATATT3xFfGF0standin0demo0approvals0token0';
/** The approver of jira-approval-gate.yaml (a fixed account id: the example names it). */
export const DEMO_JIRA_APPROVER = '5b10ac8d82e05b22cc7d4ead';

export interface JiraDemoServer {
  jira: JiraStandIn;
  /** The gate's account (argo@example.com). */
  gate: JiraUser;
  alice: JiraUser;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local Jira Cloud site with the project OPS, where the account argo@example.com opens approval requests as
 * issues; alice, the release manager, moves each issue the gate opened to Approved on its second read.
 */
export async function startJiraDemo(): Promise<JiraDemoServer> {
  const jira = await new JiraStandIn().start();
  const gate = jira.addUser('712020:argo-deployer', {
    email: 'argo@example.com',
    token: DEMO_JIRA_API_TOKEN,
  });
  const alice = jira.addUser(DEMO_JIRA_APPROVER, { email: 'alice@example.com' });
  jira.addProject('OPS', [gate, alice]);
  jira.script.each(2, (key) => {
    const issue = jira.issue(key);
    if (issue?.creator === gate && issue.status.name === 'To Do') jira.transition(issue, alice, 'Approved');
  });
  return {
    jira,
    gate,
    alice,
    env: {
      APPROVALS_JIRA_URL: jira.url,
      APPROVALS_JIRA_EMAIL: 'argo@example.com',
      APPROVALS_JIRA_API_TOKEN: DEMO_JIRA_API_TOKEN,
      APPROVALS_JIRA_PROJECTS: 'OPS',
    },
    close: () => jira.close(),
  };
}
