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
  type RequestState,
} from '../../approvals/approval-channel.js';
import type { GateFeature } from '../../approvals/approve-config.dto.js';
import { conclusionLine } from '../../approvals/concluded-decision.js';
import { firstLine, textDigest } from '../../shared/approval-fields.js';
import type { JiraApprovalConfig } from './jira-approval-config.dto.js';
import { JiraApi, type JiraChange, type JiraComment } from './jira-api.js';
import { JIRA_SITES, type JiraSite } from './jira-settings.js';

/**
 * Jira Cloud publishes no calls-a-minute figure for API-token traffic: it answers bursts with 429 and
 * Retry-After (https://developer.atlassian.com/cloud/jira/platform/rate-limiting). The gates keep to this
 * many a site, well below the burst limits; the admin may set APPROVALS_JIRA_CALLS_PER_MINUTE.
 */
export const JIRA_CALLS_PER_MINUTE = 100;

/** Characters of the text's first line the summary takes (Jira's limit is 255). */
const SUMMARY_LIMIT = 250;

/** Ends the comment that shows the decision, so a repeated conclude does not comment twice. */
const DECISION_MARK = '[argo-approval-decision]';

/** The label of the issue a gate opens: its marker hashed (a label has no spaces). */
export function markerLabel(marker: string): string {
  return `argo-approval-${textDigest(marker).slice(0, 40)}`;
}

/** The last line of the comment that asks on a named issue: how that request is found again. */
function markerLine(marker: string): string {
  return `[argo-approval: ${textDigest(marker)}]`;
}

/** Text as Atlassian Document Format: one paragraph a line. */
export function adf(text: string): unknown {
  return {
    type: 'doc',
    version: 1,
    content: text
      .split('\n')
      .map((line) => ({ type: 'paragraph', content: line === '' ? [] : [{ type: 'text', text: line }] })),
  };
}

/** The plain text of an ADF document: its text nodes, a line a paragraph. */
export function adfText(doc: unknown): string {
  const node = doc as { type?: string; text?: unknown; content?: unknown } | null;
  if (!node || typeof node !== 'object') return '';
  if (typeof node.text === 'string') return node.text;
  const parts = Array.isArray(node.content) ? node.content.map(adfText) : [];
  return node.type === 'doc' ? parts.join('\n') : parts.join('');
}

/**
 * An approval request as a Jira issue: one the gate opens (labelled with its marker), or one the body names,
 * asked on by a comment of the gate's account. Listed approvers answer by moving the issue: a transition to
 * `rejectedStatus` rejects, one to `approvedStatus` (or into `approvedCategory`) approves, as the issue's
 * changelog records them (who, when); a person's later move into another status withdraws their answer. A
 * transition before the request counts for nothing.
 * The decision is a comment of the gate's account, which a restarted gate reads back.
 */
export class JiraApprovalChannel implements ApprovalChannel {
  /** The issue's comments, its changelog (100 a page each); a status's category is read once. */
  readonly callsPerRead = 2;
  readonly callsPerMinute = JIRA_CALLS_PER_MINUTE;
  readonly budgetVariable = 'APPROVALS_JIRA_CALLS_PER_MINUTE';
  readonly howToAnswer: string;

  constructor(
    readonly upstream: string,
    private readonly api: JiraApi,
    private readonly site: JiraSite,
    private readonly config: JiraApprovalConfig,
  ) {
    const approve = config.approvedStatus ?? `a status of the "${config.approvedCategory}" category`;
    this.howToAnswer = `Move the issue to ${approve} to approve, or to ${config.rejectedStatus} to reject.`;
  }

  mention(accountId: string): string {
    return accountId;
  }

  async post(request: { text: string; marker: string }, signal: AbortSignal): Promise<PostedRequest> {
    const own = await this.api.ownAccountId(signal);
    if (this.config.issue) return this.askOn(this.config.issue, own, request, signal);
    const label = markerLabel(request.marker);
    const project = this.config.project!;
    // Only an issue this account opened is its request: anyone who may edit issues can copy the label.
    const found = await this.api.search(
      `project = "${project}" AND labels = "${label}" ORDER BY created ASC`,
      signal,
    );
    const earlier = found.find((i) => i.fields.creator?.accountId === own);
    if (earlier)
      return this.posted(earlier.key, earlier.id, own, Date.parse(earlier.fields.created ?? ''), true);
    const created = await this.api.createIssue(
      {
        project: { key: project },
        issuetype: { name: this.config.issueType ?? 'Task' },
        summary: firstLine(request.text, SUMMARY_LIMIT),
        description: adf(`${request.text}\n\n${this.howToAnswer}`),
        labels: [label],
      },
      signal,
    );
    const issue = await this.api.issue(created.key, signal);
    return this.posted(issue.key, issue.id, own, Date.parse(issue.fields.created ?? ''), false);
  }

  async read(posted: PostedRequest, signal: AbortSignal): Promise<RequestState> {
    const key = posted.ref.issue!;
    let comments: JiraComment[];
    let changes: JiraChange[];
    try {
      comments = await this.api.comments(key, signal);
      changes = await this.api.changelog(key, signal);
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return { kind: 'deleted' };
      throw err;
    }
    const line = this.decisionOf(comments, posted.author);
    if (line) return { kind: 'concluded', line };
    // Each person's latest move counts: into a decision status, their answer; into any other, withdrawn.
    const latest = new Map<string, ApprovalAnswer>();
    for (const change of changes) {
      const at = Date.parse(change.created);
      if (!change.author || !(at >= posted.postedAt)) continue;
      for (const item of change.items) {
        if ((item.fieldId ?? item.field) !== 'status') continue;
        const user = change.author.accountId;
        const vote = await this.voteOf(item.to ?? undefined, item.toString ?? '', signal);
        latest.delete(user);
        if (vote) latest.set(user, { user, vote, at, bot: change.author.accountType === 'app' });
      }
    }
    const answers = [...latest.values()];
    return { kind: 'present', answers };
  }

  /** Account ids as they are: Jira's groups are not expanded (docs/approvals.md). */
  members(approvers: string[]): Promise<Set<string>> {
    return Promise.resolve(new Set(approvers));
  }

  async conclude(posted: PostedRequest, { decision }: Conclusion, signal: AbortSignal): Promise<void> {
    const key = posted.ref.issue!;
    try {
      if (this.decisionOf(await this.api.comments(key, signal), posted.author)) return;
      await this.api.comment(key, adf(`${decision}\n${DECISION_MARK}`), signal);
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return;
      throw err;
    }
  }

  /** The decision line of the gate's own decision comment, if it wrote one. */
  private decisionOf(comments: JiraComment[], author: string): string | undefined {
    for (const c of comments) {
      if (c.author?.accountId !== author) continue;
      const text = adfText(c.body).trim();
      if (!text.endsWith(DECISION_MARK)) continue;
      const line = conclusionLine(`\n\n${text.slice(0, -DECISION_MARK.length).trim()}`);
      if (line) return line;
    }
    return undefined;
  }

  private async voteOf(statusId: string | undefined, name: string, signal: AbortSignal) {
    const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
    if (same(name, this.config.rejectedStatus)) return 'reject' as const;
    if (this.config.approvedStatus !== undefined)
      return same(name, this.config.approvedStatus) ? ('approve' as const) : undefined;
    if (statusId === undefined) return undefined;
    const status = await this.api.status(statusId, signal);
    return status.statusCategory?.key === this.config.approvedCategory ? ('approve' as const) : undefined;
  }

  /** A named issue: the gate asks with a comment (once: its own comment with the marker is found again). */
  private async askOn(
    key: string,
    own: string,
    request: { text: string; marker: string },
    signal: AbortSignal,
  ): Promise<PostedRequest> {
    const issue = await this.api.issue(key, signal);
    const marker = markerLine(request.marker);
    const earlier = (await this.api.comments(issue.key, signal)).find(
      (c) => c.author?.accountId === own && adfText(c.body).trim().endsWith(marker),
    );
    const comment =
      earlier ??
      (await this.api.comment(issue.key, adf(`${request.text}\n\n${this.howToAnswer}\n${marker}`), signal));
    return this.posted(issue.key, issue.id, own, Date.parse(comment.created), earlier !== undefined);
  }

  private posted(key: string, id: string, author: string, postedAt: number, found: boolean): PostedRequest {
    return { ref: { issue: key, id }, url: `${this.site.url}/browse/${key}`, author, postedAt, found };
  }
}

/**
 * The Jira approval channels of a sidecar: one API client per configured site (APPROVALS_JIRA_URL …,
 * APPROVALS_JIRA_<NAME>_…), a channel per gate through the site its block names, in a project that site's
 * APPROVALS_JIRA_PROJECTS allows.
 */
export class JiraApprovalChannels implements ApprovalChannels<JiraApprovalConfig> {
  /** A transition carries no comment, and one approver's transition decides: none of the extra fields. */
  readonly supports = new Set<GateFeature>();
  private readonly apis: UpstreamClients<JiraSite, JiraApi>;

  constructor(
    private readonly sites: ReadonlyMap<string, JiraSite>,
    redactor: Redactor,
    timeoutMs: number,
  ) {
    for (const site of sites.values()) redactor.add(site.apiToken);
    this.apis = new UpstreamClients(JIRA_SITES, sites, (site, name) => new JiraApi(name, site, timeoutMs));
  }

  channelFor(config: JiraApprovalConfig, access: UpstreamAccess): JiraApprovalChannel {
    const api = this.apis.get(config.site, access);
    const site = this.sites.get(api.site)!;
    const project = config.issue ? config.issue.slice(0, config.issue.lastIndexOf('-')) : config.project!;
    const field = config.issue ? 'issue' : 'project';
    if (!site.projects.has(project))
      throw new PluginConfigError(
        `${field}: project ${project} is not one the admin allows for approval issues (allowed: ${[...site.projects].join(', ')})`,
      );
    return new JiraApprovalChannel(upstreamOf('jira', config.site), api, site, config);
  }
}
