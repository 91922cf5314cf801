import { IsIn, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { AdminChoice, EmptyAsAbsent } from '../../shared/body-fields.js';
import { ApprovalText, Approvers } from '../../shared/approval-fields.js';
import { JIRA_PROJECT } from './jira-settings.js';

/** An issue key: `OPS-123`. */
export const JIRA_ISSUE_KEY = /^[A-Z][A-Z0-9_]{0,9}-[1-9]\d{0,9}$/;

/** Jira's status categories (GET /rest/api/3/statuscategory): To Do, In Progress, Done. */
export const STATUS_CATEGORIES = ['new', 'indeterminate', 'done'] as const;

/** Jira's 32,767 characters of a text field, less the decision and instructions the gate adds. */
const TEXT_LIMIT = 30_000;

/**
 * `approve: {jira: {...}}`: an issue the gate opens (in `project`), or one it waits on (`issue`); a listed
 * approver's transition to `approvedStatus` (or into `approvedCategory`) approves, to `rejectedStatus` rejects.
 */
export class JiraApprovalConfig {
  /** The project the gate opens its issue in: one the admin allows (APPROVALS_JIRA_PROJECTS). */
  @ValidateIf((c: JiraApprovalConfig) => c.issue === undefined || c.project !== undefined)
  @Matches(JIRA_PROJECT, { message: 'must be a project key such as OPS (required unless issue is given)' })
  project?: string;

  /** An existing issue to wait on instead of opening one (`OPS-123`), in a project the admin allows. */
  @EmptyAsAbsent()
  @IsOptional()
  @Matches(JIRA_ISSUE_KEY, { message: 'must be an issue key such as OPS-123' })
  issue?: string;

  /** The type of the issue the gate opens (default Task). */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @Length(1, 60)
  issueType?: string;

  /** What the approvers are asked: the issue's description (its first line is the summary), or a comment on `issue`. */
  @ApprovalText(TEXT_LIMIT)
  text!: string;

  /** Atlassian account ids (`5b10ac8d82e05b22cc7d4ef5`, `712020:…`); a list or a comma-separated string. */
  @Approvers({
    name: 'isJiraApprovers',
    pattern: /^[A-Za-z0-9:-]{1,128}$/,
    normalise: (a) => a,
    message: 'must be 1 to 50 approvers: Atlassian account ids',
  })
  approvers!: string[];

  /** The status a listed approver's transition to approves (its name, as the workflow shows it). */
  @ValidateIf((c: JiraApprovalConfig) => c.approvedCategory === undefined)
  @Length(1, 255, { message: 'must be a status name (or give approvedCategory)' })
  approvedStatus?: string;

  /** Instead of approvedStatus: a transition into any status of this category approves. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsIn(STATUS_CATEGORIES, { message: `must be one of ${STATUS_CATEGORIES.join(', ')}` })
  approvedCategory?: (typeof STATUS_CATEGORIES)[number];

  /** The status a listed approver's transition to rejects (checked before approvedCategory). */
  @IsString()
  @Length(1, 255)
  rejectedStatus!: string;

  /** A site configured by the admin (APPROVALS_JIRA_<NAME>_URL …); the default one when absent. */
  @AdminChoice('site', 'ops')
  site?: string;
}
