import { GithubStandIn, type GhRepository } from '../stand-ins/github/github.stand-in.js';

/** The token of the demo's GitHub account (a stand-in value, not a real GitHub token). */
export const DEMO_GITHUB_APPROVALS_TOKEN = 'ghp_standin0demo0approvals0token000000000';

export interface GithubDemoServer {
  github: GithubStandIn;
  /** acme/deploys, where requests are opened as issues. */
  deploys: GhRepository;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local GitHub for approval requests: the repository acme/deploys, where the account argo-deployer opens
 * them, and the team acme/release-managers, whose member alice comments `/approve` on each request's second
 * read.
 */
export async function startGithubDemo(): Promise<GithubDemoServer> {
  const github = await new GithubStandIn().start();
  const deployer = github.addUser('argo-deployer', { token: DEMO_GITHUB_APPROVALS_TOKEN });
  const alice = github.addUser('alice');
  const repo = github.addRepository('acme/deploys', [deployer, alice]);
  github.addTeam('acme', 'release-managers', [alice]);
  github.script.each(2, (request) =>
    github.comment(github.issue(repo, request.split('#')[1]!), alice, '/approve'),
  );
  return {
    github,
    deploys: repo,
    env: {
      APPROVALS_GITHUB_TOKEN: DEMO_GITHUB_APPROVALS_TOKEN,
      APPROVALS_GITHUB_REPOSITORIES: 'acme/deploys',
      APPROVALS_GITHUB_API_URL: github.url,
    },
    close: () => github.close(),
  };
}
