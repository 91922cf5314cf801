import {
  PluginConfigError,
  Redactor,
  UpstreamClients,
  UpstreamError,
  type UpstreamAccess,
} from '@app/plugin-kit';
import {
  upstreamOf,
  type ApprovalAnswer,
  type ApprovalChannel,
  type ApprovalChannels,
  type Conclusion,
  type PostedRequest,
  type PostRequest,
  type RequestState,
} from '../../approvals/approval-channel.js';
import type { GateFeature } from '../../approvals/approve-config.dto.js';
import { commentAfterKeyword } from '../../approvals/answer-comment.js';
import { conclusionLine } from '../../approvals/concluded-decision.js';
import { firstLine, replyVote, textDigest } from '../../shared/approval-fields.js';
import { githubApprover, type GithubApprovalConfig } from './github-approval-config.dto.js';
import { GithubApi, type GithubIssue } from './github-api.js';
import { GITHUB_ACCOUNTS, type GithubAccount } from './github-settings.js';

/** The label every request issue carries: how the request is found again after a restart. */
export const APPROVAL_LABEL = 'argo-approval';

/** A comment votes with its first word. */
const COMMENT_WORDS = { approve: '/approve', reject: '/deny' } as const;

/** Ends the comment that shows the decision, so a repeated conclude does not comment twice. */
const DECISION_MARK = '<!-- argo-approval-decision -->';

/** Characters of the text's first line the issue's title takes. */
const TITLE_LIMIT = 120;

/**
 * GitHub's primary rate limit for a token: 5,000 requests an hour
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api), 83 a minute.
 */
export const GITHUB_CALLS_PER_MINUTE = Math.floor(5000 / 60);

/** The hidden line of the request's body that carries its marker (hashed: a marker cannot close the comment). */
export function markerLine(marker: string): string {
  return `<!-- argo-approval: ${textDigest(marker)}`;
}

/**
 * The issue's body: the request, then a hidden line with the gate's marker and the digest of what is above it,
 * so a restarted sidecar that finds the issue again checks the body against the text it was opened with (its
 * own request text differs: it is written, with a new deadline, before the earlier request is found).
 */
function issueBody(text: string, marker: string): string {
  const content = `${text}\n\n_Approvers: comment \`/approve\` or \`/deny\`._`;
  return `${content}\n${markerLine(marker)} ${textDigest(content)} -->`;
}

/** The digest the body was opened with, and the digest of its content now (undefined: not one of ours). */
function bodyDigests(body: string): { posted: string; now: string } | undefined {
  const at = body.lastIndexOf('\n<!-- argo-approval: ');
  const posted = /^\n<!-- argo-approval: \w+ (\w+) -->$/.exec(body.slice(at))?.[1];
  return at < 0 || !posted ? undefined : { posted, now: textDigest(body.slice(0, at)) };
}

/**
 * An approval request as a GitHub issue (labelled `argo-approval`), answered by comments whose first word is
 * `/approve` or `/deny`. Rules: a comment edited after it was posted (`updated_at` later than `created_at`)
 * counts for nothing — post a new one; a deleted comment is withdrawn; comments of apps (`type: Bot`, `…[bot]`)
 * are marked bot. The request is tampered when its body is no longer the body posted (GitHub's REST API does not
 * say who edited it: any edit fails the gate), when it was transferred to another repository, or when someone
 * other than its author closed it. The decision is a comment, and the issue is closed as completed.
 */
export class GithubApprovalChannel implements ApprovalChannel {
  /** The issue, its comments (100 a page), one team's members. */
  readonly callsPerRead = 3;
  readonly howToAnswer = 'Comment `/approve` or `/deny` (an edited comment does not count).';
  readonly callsPerMinute = GITHUB_CALLS_PER_MINUTE;
  readonly budgetVariable = 'APPROVALS_GITHUB_CALLS_PER_MINUTE';

  constructor(
    readonly upstream: string,
    private readonly api: GithubApi,
    private readonly config: GithubApprovalConfig,
  ) {}

  mention(login: string): string {
    return `@${login.replace(/^@/, '')}`;
  }

  async post(request: PostRequest, signal: AbortSignal): Promise<PostedRequest> {
    const repo = this.config.repository;
    const body = issueBody(request.text, request.marker);
    const labelled = await this.api.labelled(repo, APPROVAL_LABEL, signal);
    // Only an issue this account opened is its request: anyone who may open issues can copy the marker.
    const own = labelled.length > 0 ? await this.api.ownLogin(signal) : undefined;
    const earlier = labelled.find(
      (i) => i.user.login.toLowerCase() === own && (i.body ?? '').includes(markerLine(request.marker)),
    );
    const issue =
      earlier ??
      (await this.api.createIssue(
        repo,
        { title: firstLine(request.text, TITLE_LIMIT), body, labels: [APPROVAL_LABEL] },
        signal,
      ));
    return {
      ref: {
        repository: repo,
        issue: String(issue.number),
        digest: earlier ? (bodyDigests(earlier.body ?? '')?.posted ?? '') : bodyDigests(body)!.posted,
      },
      url: issue.html_url,
      author: issue.user.login.toLowerCase(),
      postedAt: Date.parse(issue.created_at),
      found: earlier !== undefined,
    };
  }

  async read(posted: PostedRequest, signal: AbortSignal): Promise<RequestState> {
    const issue = await this.existing(posted, signal);
    if (issue === 'deleted') return { kind: 'deleted' };
    if (issue === 'moved')
      return { kind: 'tampered', detail: `issue ${posted.url} was transferred to another repository` };
    if (bodyDigests(issue.body ?? '')?.now !== posted.ref.digest)
      return {
        kind: 'tampered',
        detail: `the body of ${posted.url} was edited (last change ${issue.updated_at})`,
      };
    const closer = issue.closed_by?.login.toLowerCase();
    if (issue.state === 'closed' && closer !== posted.author)
      return {
        kind: 'tampered',
        detail: `${posted.url} was closed${closer ? ` by ${closer}` : ''} before the decision`,
      };
    const comments = await this.api.comments(posted.ref.repository!, posted.ref.issue!, signal);
    const decided = comments.find(
      (c) => c.user.login.toLowerCase() === posted.author && (c.body ?? '').endsWith(DECISION_MARK),
    );
    // The account's decision comment: what it decided before this process knew the gate.
    const line = decided && conclusionLine(`\n\n${decided.body!.slice(0, -DECISION_MARK.length).trim()}`);
    if (line) return { kind: 'concluded', line };
    const answers: ApprovalAnswer[] = [];
    for (const c of comments) {
      const vote = c.updated_at === c.created_at ? replyVote(c.body ?? '', COMMENT_WORDS) : undefined;
      if (!vote) continue;
      const login = c.user.login.toLowerCase();
      const comment = commentAfterKeyword(c.body ?? '');
      answers.push({
        user: login,
        vote,
        at: Date.parse(c.created_at) || 0,
        bot: c.user.type === 'Bot' || login.endsWith('[bot]'),
        ...(comment && { comment }),
      });
    }
    return { kind: 'present', answers };
  }

  async members(approvers: string[], signal: AbortSignal): Promise<Set<string>> {
    const logins = new Set<string>();
    // A rule's approvers come as the body wrote them (`@Alice`).
    for (const approver of approvers.map(githubApprover)) {
      const [org, team] = approver.split('/');
      if (team === undefined) logins.add(approver);
      else
        for (const login of await this.api.teamMembers(org!, team, signal)) logins.add(login.toLowerCase());
    }
    return logins;
  }

  async conclude(posted: PostedRequest, { decision }: Conclusion, signal: AbortSignal): Promise<void> {
    const issue = await this.existing(posted, signal);
    if (issue === 'deleted' || issue === 'moved') return;
    const { repository, issue: number } = posted.ref;
    const comments = await this.api.comments(repository!, number!, signal);
    const concluded = comments.some(
      (c) => c.user.login.toLowerCase() === posted.author && (c.body ?? '').endsWith(DECISION_MARK),
    );
    if (!concluded) await this.api.comment(repository!, number!, `${decision}\n\n${DECISION_MARK}`, signal);
    if (issue.state === 'open') await this.api.closeIssue(repository!, number!, signal);
  }

  /** The issue; `deleted` for 404 and 410 Gone, `moved` for the 301 of a transferred issue. */
  private async existing(
    posted: PostedRequest,
    signal: AbortSignal,
  ): Promise<GithubIssue | 'deleted' | 'moved'> {
    try {
      return await this.api.issue(posted.ref.repository!, posted.ref.issue!, signal);
    } catch (err) {
      if (err instanceof UpstreamError && (err.status === 404 || err.status === 410)) return 'deleted';
      if (err instanceof UpstreamError && err.status === 301) return 'moved';
      throw err;
    }
  }
}

/**
 * The GitHub approval channels of a sidecar: one API client per configured account (APPROVALS_GITHUB_TOKEN,
 * APPROVALS_GITHUB_<NAME>_TOKEN), a channel per gate through the account its block names, in a repository that
 * account's APPROVALS_GITHUB_REPOSITORIES allows.
 */
export class GithubApprovalChannels implements ApprovalChannels<GithubApprovalConfig> {
  /**
   * `rules`: teams and logins per rule; `requireComment`: the reason after `/approve` or `/deny`. No creator look-up yet: `excludeCreator` is
   * refused (docs/approvals.md says what the API offers).
   */
  readonly supports = new Set<GateFeature>(['rules', 'requireComment']);
  private readonly apis: UpstreamClients<GithubAccount, GithubApi>;

  constructor(
    private readonly accounts: ReadonlyMap<string, GithubAccount>,
    redactor: Redactor,
    timeoutMs: number,
  ) {
    for (const account of accounts.values()) redactor.add(account.token);
    this.apis = new UpstreamClients(
      GITHUB_ACCOUNTS,
      accounts,
      (account, name) => new GithubApi(name, account, timeoutMs),
    );
  }

  channelFor(config: GithubApprovalConfig, access: UpstreamAccess): GithubApprovalChannel {
    const api = this.apis.get(config.account, access);
    const allowed = this.accounts.get(api.account)!.repositories;
    if (!allowed.has(config.repository.toLowerCase()))
      throw new PluginConfigError(
        `repository: ${config.repository} is not one the admin allows for approval issues (allowed: ${[...allowed].join(', ')})`,
      );
    return new GithubApprovalChannel(upstreamOf('github', config.account), api, config);
  }
}
