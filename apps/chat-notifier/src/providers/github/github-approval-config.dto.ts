import { Matches } from 'class-validator';
import { AdminChoice } from '../../shared/body-fields.js';
import { ApprovalText, Approvers } from '../../shared/approval-fields.js';
import { GITHUB_REPOSITORY } from './github-settings.js';

/** A login as a body writes it (`@Octocat`), as the channel compares it (`octocat`). */
export const githubApprover = (a: string): string => a.replace(/^@/, '').toLowerCase();

/** A login (`octocat`), or a team as `org/team-slug`. */
const GITHUB_APPROVER = /^(?:[a-z0-9](?:[a-z0-9-]{0,38})|[a-z0-9](?:[a-z0-9-]{0,38})\/[a-z0-9_-]{1,100})$/;

/** GitHub's 65536 characters of an issue body, less the instructions and the marker the request adds. */
const TEXT_LIMIT = 60_000;

/** `approve: {github: {...}}`: an issue in a repository the admin allows, answered by `/approve` and `/deny` comments. */
export class GithubApprovalConfig {
  /** `owner/name`: one of the repositories the admin allows (APPROVALS_GITHUB_REPOSITORIES). */
  @Matches(GITHUB_REPOSITORY, { message: 'must be a repository as owner/name' })
  repository!: string;

  /** What the approvers are asked: the body (its first line is the title). */
  @ApprovalText(TEXT_LIMIT)
  text!: string;

  /** Logins (octocat or @octocat) and teams (org/team-slug); a list or a comma-separated string. */
  @Approvers({
    name: 'isGithubApprovers',
    pattern: GITHUB_APPROVER,
    normalise: githubApprover,
    message: 'must be 1 to 50 approvers: logins (octocat or @octocat) or teams (org/team-slug)',
  })
  approvers!: string[];

  /**
   * An account configured by the admin (APPROVALS_GITHUB_<NAME>_TOKEN + APPROVALS_GITHUB_<NAME>_REPOSITORIES);
   * the default one when absent.
   */
  @AdminChoice('account', 'ops')
  account?: string;
}
