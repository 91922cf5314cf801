import { NamespaceScopes, PluginConfigError, Redactor, UpstreamError } from '@app/plugin-kit';
import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import { JiraStandIn, type JiraUser } from '../../../stand-ins/jira/jira.stand-in.js';
import type { PostedRequest } from '../../approvals/approval-channel.js';
import { JiraApprovalConfig } from './jira-approval-config.dto.js';
import { adf, adfText, JiraApprovalChannels, markerLabel } from './jira-approval-channel.js';
import { jiraRetryAfterMs } from './jira-api.js';
import { readJiraSites } from './jira-settings.js';

const TOKEN = 'ATATT3xFfGF0standin0jira0token0000000000';
const EMAIL = 'argo@example.com';
const signal = new AbortController().signal;
const access = { scopes: NamespaceScopes.unrestricted, namespace: 'argo' };

function config(body: object): JiraApprovalConfig {
  const result = validatePluginConfig(JiraApprovalConfig, body);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
}

const BLOCK = {
  project: 'OPS',
  text: 'Deploy 1.4.2 to prod?\nChangelog: …',
  approvers: 'alice',
  approvedStatus: 'Approved',
  rejectedStatus: 'Rejected',
};

describe('JiraApprovalChannel against the Jira stand-in', () => {
  let jira: JiraStandIn;
  let argo: JiraUser;
  let alice: JiraUser;
  let mallory: JiraUser;

  beforeAll(async () => {
    jira = await new JiraStandIn().start();
    argo = jira.addUser('712020:argo', { email: EMAIL, token: TOKEN });
    alice = jira.addUser('alice');
    mallory = jira.addUser('mallory');
    jira.addProject('OPS', [argo, alice, mallory]);
    jira.addProject('HR', [argo]);
  });
  afterAll(() => jira.close());
  afterEach(() => (jira.pageLimit = 100));

  const channels = (token = TOKEN) =>
    new JiraApprovalChannels(
      readJiraSites({
        APPROVALS_JIRA_URL: jira.url,
        APPROVALS_JIRA_EMAIL: EMAIL,
        APPROVALS_JIRA_API_TOKEN: token,
        APPROVALS_JIRA_PROJECTS: 'OPS',
      }).sites,
      new Redactor(),
      2000,
    );
  const channel = (block: object = {}, token = TOKEN) =>
    channels(token).channelFor(config({ ...BLOCK, ...block }), access);
  const request = (marker: string, block: object = {}) =>
    channel(block).post({ text: BLOCK.text, marker }, signal);
  const issueOf = (posted: PostedRequest) => jira.issue(posted.ref.issue!)!;
  const answers = async (posted: PostedRequest, block: object = {}) => {
    const state = await channel(block).read(posted, signal);
    if (state.kind !== 'present') throw new Error(`not present: ${JSON.stringify(state)}`);
    return state.answers.map(({ user, vote, bot }) => ({ user, vote, bot }));
  };

  it('opens one labelled issue per marker: a restarted gate finds it by label and creator instead of opening another', async () => {
    const first = await request('gate-once');
    expect(await request('gate-once')).toEqual({ ...first, found: true });
    const mine = jira.issues.filter((i) => i.labels.includes(markerLabel('gate-once')));
    expect(mine).toHaveLength(1);
    expect(first).toEqual({
      ref: { issue: mine[0]!.key, id: mine[0]!.id },
      url: `${jira.url}/browse/${mine[0]!.key}`,
      author: argo.accountId,
      postedAt: Date.parse(mine[0]!.created),
      found: false,
    });
    expect(mine[0]).toMatchObject({ summary: 'Deploy 1.4.2 to prod?', issueType: 'Task', project: 'OPS' });
    expect(adfText(mine[0]!.description)).toContain('Move the issue to Approved to approve, or to Rejected');
  });

  it("never adopts an issue someone else opened with the gate's label", async () => {
    const forged = jira.open(mallory, {
      project: 'OPS',
      summary: 'Deploy?',
      labels: [markerLabel('gate-forged')],
    });
    const posted = await request('gate-forged');
    expect(posted.ref.issue).not.toBe(forged.key);
    expect(posted.found).toBe(false);
    expect(issueOf(posted).creator).toBe(argo);
  });

  it('finds its issue again past a page of search results', async () => {
    jira.pageLimit = 2;
    for (let i = 0; i < 5; i++)
      jira.open(mallory, { project: 'OPS', summary: 'x', labels: [markerLabel('gate-paged')] });
    const first = await request('gate-paged');
    for (let i = 0; i < 3; i++)
      jira.open(mallory, { project: 'OPS', summary: 'x', labels: [markerLabel('gate-paged')] });
    expect(await request('gate-paged')).toEqual({ ...first, found: true });
  });

  it("a transition to the approved or rejected status is its author's answer; their move into another withdraws it", async () => {
    const posted = await request('gate-moves');
    jira.script.after(2, () => jira.transition(issueOf(posted), alice, 'Approved'), posted.ref.issue);
    expect(await answers(posted)).toEqual([]);
    jira.transition(issueOf(posted), mallory, 'In Progress');
    expect(await answers(posted)).toEqual([{ user: 'alice', vote: 'approve', bot: false }]);
    jira.transition(issueOf(posted), mallory, 'Rejected');
    expect(await answers(posted)).toEqual([
      { user: 'alice', vote: 'approve', bot: false },
      { user: 'mallory', vote: 'reject', bot: false },
    ]);
    // alice moves it on to another status: her answer is withdrawn.
    jira.transition(issueOf(posted), alice, 'To Do');
    expect(await answers(posted)).toEqual([{ user: 'mallory', vote: 'reject', bot: false }]);
  });

  it('with approvedCategory, a move into any status of that category approves; rejectedStatus still rejects', async () => {
    const block = { approvedStatus: undefined, approvedCategory: 'done' };
    const posted = await request('gate-category', block);
    jira.transition(issueOf(posted), alice, 'Done');
    jira.transition(issueOf(posted), mallory, 'Rejected');
    expect(await answers(posted, block)).toEqual([
      { user: 'alice', vote: 'approve', bot: false },
      { user: 'mallory', vote: 'reject', bot: false },
    ]);
  });

  it("an app's transition is marked bot; every page of the changelog is read", async () => {
    const bot = jira.addUser('automation', { app: true });
    const posted = await request('gate-bot');
    for (let i = 0; i < 3; i++) jira.transition(issueOf(posted), mallory, 'In Progress');
    jira.transition(issueOf(posted), bot, 'Approved');
    jira.pageLimit = 2;
    expect(await answers(posted)).toEqual([{ user: 'automation', vote: 'approve', bot: true }]);
  });

  it('on a named issue, asks once with a comment; moves before the request count for nothing', async () => {
    const named = jira.open(mallory, { project: 'OPS', summary: 'CHG: rotate keys' });
    jira.transition(named, alice, 'Approved');
    jira.transition(named, alice, 'To Do');
    const posted = await request('gate-named', { issue: named.key, project: undefined });
    expect(posted).toMatchObject({ ref: { issue: named.key }, found: false, author: argo.accountId });
    expect(await request('gate-named', { issue: named.key, project: undefined })).toEqual({
      ...posted,
      found: true,
    });
    expect(named.comments).toHaveLength(1);
    expect(adfText(named.comments[0]!.body)).toContain('Deploy 1.4.2 to prod?');
    expect(await answers(posted)).toEqual([]);
    jira.transition(named, alice, 'Rejected');
    expect(await answers(posted)).toEqual([{ user: 'alice', vote: 'reject', bot: false }]);
  });

  it("the decision is one comment of the gate's account, read back as concluded; another's copy is not", async () => {
    const posted = await request('gate-decided');
    const line =
      ':white_check_mark: Approved by alice at 2026-06-07T10:00:00.000Z\n- alice approve at 2026-06-07T09:59:00.000Z';
    jira.comment(issueOf(posted), mallory, adf(`${line}\n[argo-approval-decision]`));
    expect((await channel().read(posted, signal)).kind).toBe('present');
    await channel().conclude(posted, { decision: line, requestText: '' }, signal);
    await channel().conclude(posted, { decision: line, requestText: '' }, signal);
    expect(issueOf(posted).comments.filter((c) => c.author === argo)).toHaveLength(1);
    expect(await channel().read(posted, signal)).toEqual({ kind: 'concluded', line });
  });

  it('a deleted issue reads as deleted, and concluding it does nothing', async () => {
    const posted = await request('gate-deleted');
    jira.remove(issueOf(posted));
    expect(await channel().read(posted, signal)).toEqual({ kind: 'deleted' });
    await expect(
      channel().conclude(posted, { decision: 'x', requestText: '' }, signal),
    ).resolves.toBeUndefined();
  });

  it("a 429 is transient with Jira's Retry-After, or without one until X-RateLimit-Reset", async () => {
    const posted = await request('gate-limited');
    jira.rateLimit('GET', `/rest/api/3/issue/${posted.ref.issue}/comment`, 7);
    const limited = await channel()
      .read(posted, signal)
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(UpstreamError);
    expect(limited).toMatchObject({ transient: true, status: 429, retryAfterMs: 7000 });
    expect((limited as Error).message).toContain('Rate limit exceeded.');
    jira.rateLimit('GET', `/rest/api/3/issue/${posted.ref.issue}/comment`, 60, { withRetryAfter: false });
    const reset = (await channel()
      .read(posted, signal)
      .catch((e: unknown) => e)) as UpstreamError;
    expect(reset.retryAfterMs).toBeGreaterThan(55_000);
    expect(reset.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('reads the wait of a 429 from its headers', () => {
    const now = Date.parse('2026-06-07T10:00:00.000Z');
    expect(jiraRetryAfterMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(jiraRetryAfterMs({ 'x-ratelimit-reset': '2026-06-07T10:01Z' }, now)).toBe(60_000);
    expect(jiraRetryAfterMs({}, now)).toBeUndefined();
  });

  it("a wrong API token is Jira's 401 with the admin's hint, and the token never shows", async () => {
    const wrong = 'ATATT3xFfGF0wrong0token000000000000000000';
    const err = (await channel({}, wrong)
      .post({ text: 'x', marker: 'gate-401' }, signal)
      .catch((e: unknown) => e)) as UpstreamError;
    expect(err).toMatchObject({ status: 401, transient: false });
    expect(err.message).toContain('Client must be authenticated');
    expect(err.message).toContain('APPROVALS_JIRA_API_TOKEN');
    expect(err.message).not.toContain(wrong);
  });

  it("Jira's field errors of a refused issue name the field", async () => {
    const err = (await request('gate-type', { issueType: 'Epic' }).catch((e: unknown) => e)) as UpstreamError;
    expect(err).toMatchObject({ status: 400, transient: false });
    expect(err.message).toContain('issuetype: Specify an issue type');
  });

  it('refuses a project, or a named issue, outside the admin’s projects, naming the field', () => {
    expect(() => channel({ project: 'HR' })).toThrow(
      new PluginConfigError(
        'project: project HR is not one the admin allows for approval issues (allowed: OPS)',
      ),
    );
    expect(() => channel({ issue: 'HR-1', project: undefined })).toThrow(/^issue: project HR is not one/);
  });

  it('declares no gate features: excludeCreator, rules and requireComment are refused by the gate', () => {
    expect([...channels().supports]).toEqual([]);
  });
});

describe('JiraApprovalConfig', () => {
  const problems = (body: object) => {
    const result = validatePluginConfig(JiraApprovalConfig, body);
    return result.ok ? [] : result.problems;
  };

  it('needs a project unless it names an issue, and an approved status or category', () => {
    expect(problems(BLOCK)).toEqual([]);
    expect(problems({ ...BLOCK, project: undefined })).toEqual([
      expect.stringMatching(/^project: must be a project key/),
    ]);
    expect(problems({ ...BLOCK, project: undefined, issue: 'OPS-12' })).toEqual([]);
    expect(problems({ ...BLOCK, approvedStatus: undefined })).toEqual([
      expect.stringMatching(/^approvedStatus: must be a status name/),
    ]);
    expect(problems({ ...BLOCK, approvedStatus: undefined, approvedCategory: 'done' })).toEqual([]);
    expect(problems({ ...BLOCK, issue: 'ops-1' })).toEqual([
      expect.stringMatching(/^issue: must be an issue key/),
    ]);
  });
});

describe('readJiraSites', () => {
  it('names each missing or wrong variable, never a value', () => {
    const { sites, problems } = readJiraSites({
      APPROVALS_JIRA_URL: 'https://acme.atlassian.net',
      APPROVALS_JIRA_API_TOKEN: 'secret-token-value',
      APPROVALS_JIRA_PROJECTS: 'OPS, bad key',
    });
    expect(sites.size).toBe(0);
    expect(problems).toEqual(
      expect.arrayContaining([
        'APPROVALS_JIRA_EMAIL: is required with APPROVALS_JIRA_URL',
        expect.stringMatching(/^APPROVALS_JIRA_PROJECTS: must be project keys/),
      ]),
    );
    expect(problems.join(' ')).not.toContain('secret-token-value');
  });
});
