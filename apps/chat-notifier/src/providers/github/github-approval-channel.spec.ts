import { NamespaceScopes, PluginConfigError, Redactor } from '@app/plugin-kit';
import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import { GithubStandIn, type GhRepository, type GhUser } from '../../../stand-ins/github/github.stand-in.js';
import type { PostedRequest } from '../../approvals/approval-channel.js';
import { GithubApprovalConfig } from './github-approval-config.dto.js';
import { APPROVAL_LABEL, GithubApprovalChannels, markerLine } from './github-approval-channel.js';
import { readGithubAccounts } from './github-settings.js';

const TOKEN = 'ghp_standin0approvals0token000000000000';
const signal = new AbortController().signal;
const access = { scopes: NamespaceScopes.unrestricted, namespace: 'argo' };

function config(body: object): GithubApprovalConfig {
  const result = validatePluginConfig(GithubApprovalConfig, body);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
}

describe('GithubApprovalChannel against the GitHub stand-in', () => {
  let gh: GithubStandIn;
  let repo: GhRepository;
  let alice: GhUser;
  let bob: GhUser;
  let dependabot: GhUser;

  beforeAll(async () => {
    gh = await new GithubStandIn().start();
    const argo = gh.addUser('argo-deployer', { token: TOKEN });
    alice = gh.addUser('Alice');
    bob = gh.addUser('bob');
    dependabot = gh.addUser('dependabot[bot]', { type: 'Bot' });
    repo = gh.addRepository('acme/deploys', [argo, alice]);
    gh.addRepository('acme/other', [argo]);
  });
  afterAll(() => gh.close());

  const channels = (token = TOKEN) =>
    new GithubApprovalChannels(
      readGithubAccounts({
        APPROVALS_GITHUB_TOKEN: token,
        APPROVALS_GITHUB_REPOSITORIES: 'acme/deploys',
        APPROVALS_GITHUB_API_URL: gh.url,
      }).accounts,
      new Redactor(),
      2000,
    );
  const approvalChannel = (token = TOKEN) =>
    channels(token).channelFor(
      config({ repository: 'acme/deploys', text: 'Deploy 1.4.2 to prod?', approvers: 'alice' }),
      access,
    );
  const request = (marker: string) =>
    approvalChannel().post({ text: 'Deploy 1.4.2 to prod?\nChangelog: …', marker }, signal);
  const issueOf = (posted: PostedRequest) => gh.issue(repo, posted.ref.issue!);
  const answers = async (posted: PostedRequest) => {
    const state = await approvalChannel().read(posted, signal);
    if (state.kind !== 'present') throw new Error(`not present: ${JSON.stringify(state)}`);
    return state.answers.map(({ user, vote, bot }) => ({ user, vote, bot }));
  };

  it('opens one labelled issue per marker: a restarted reader finds it instead of opening another', async () => {
    const first = await request('gate-once');
    expect(await request('gate-once')).toEqual({ ...first, found: true });
    expect(first).toMatchObject({
      url: `https://github.com/acme/deploys/issues/${first.ref.issue}`,
      author: 'argo-deployer',
    });
    const mine = repo.issues.filter((i) => i.body.includes(markerLine('gate-once')));
    expect(mine).toHaveLength(1);
    expect(first).toMatchObject({ postedAt: Date.parse(mine[0]!.created_at), found: false });
    expect(mine[0]).toMatchObject({ title: 'Deploy 1.4.2 to prod?', labels: [APPROVAL_LABEL] });
  });

  it("with a GitHub App's installation token: the gate knows itself as its bot, and a restarted one finds its issue, never a copy by a user or another app", async () => {
    const app = gh.addApp('argo-approvals');
    const token = gh.installationToken(app, [repo]);
    const first = await approvalChannel(token).post({ text: 'Ship it?', marker: 'gate-app' }, signal);
    expect(first).toMatchObject({ author: 'argo-approvals[bot]', found: false });
    const real = issueOf(first);
    // Copies with the same marker, newer than the request: by a user who may open issues, and by another app.
    const copy = { title: real.title, body: real.body, labels: [APPROVAL_LABEL] };
    const forgers = [gh.addUser('mallory', { token: 'ghp_standin0mallory0token0000000000000' })];
    repo.writers.add('mallory');
    const other = gh.addApp('helper');
    for (const auth of ['ghp_standin0mallory0token0000000000000', gh.installationToken(other, [repo])]) {
      const res = await fetch(`${gh.url}/repos/acme/deploys/issues`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${auth}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(copy),
      });
      expect(res.status).toBe(201);
    }
    expect(repo.issues.slice(-2).map((i) => i.user.login)).toEqual([forgers[0]!.login, 'helper[bot]']);
    const again = await approvalChannel(token).post({ text: 'Ship it? (later)', marker: 'gate-app' }, signal);
    expect(again).toEqual({ ...first, found: true });
    gh.comment(real, alice, '/approve');
    expect(await approvalChannel(token).read(again, signal)).toMatchObject({
      kind: 'present',
      answers: [{ user: 'alice', vote: 'approve' }],
    });
  });

  it('an installation token is refused by GET /user and sees only its repositories; expired, it is 401 naming the variable', async () => {
    const app = gh.addApp('argo-narrow');
    const token = gh.installationToken(app, [repo]);
    const get = (path: string, auth = token) =>
      fetch(`${gh.url}${path}`, { headers: { Authorization: `Bearer ${auth}` } });
    const user = await get('/user');
    expect([user.status, ((await user.json()) as { message: string }).message]).toEqual([
      403,
      'Resource not accessible by integration',
    ]);
    expect((await get('/repos/acme/other/issues')).status).toBe(404);
    const expired = gh.installationToken(app, [repo], -1);
    expect((await get('/repos/acme/deploys/issues', expired)).status).toBe(401);
    const err = (await approvalChannel(expired)
      .post({ text: 'Ship it?', marker: 'gate-expired' }, signal)
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/401.*APPROVALS_GITHUB_TOKEN/s);
  });

  it('an approver who comments /approve after two reads is seen from then on; a deleted comment withdraws it', async () => {
    const posted = await request('gate-comment');
    let comment: ReturnType<GithubStandIn['comment']> | undefined;
    gh.script.after(
      2,
      () => (comment = gh.comment(issueOf(posted), alice, '/approve')),
      `acme/deploys#${posted.ref.issue}`,
    );
    expect(await answers(posted)).toEqual([]);
    expect(await answers(posted)).toEqual([{ user: 'alice', vote: 'approve', bot: false }]);
    gh.deleteComment(issueOf(posted), comment!);
    expect(await answers(posted)).toEqual([]);
  });

  it('/approve and /deny vote, chatter and edited comments do not, apps are bots; every page is read', async () => {
    const posted = await request('gate-mixed');
    const issue = issueOf(posted);
    for (let i = 0; i < 150; i++) gh.comment(issue, bob, `note ${i}`);
    gh.comment(issue, bob, '/deny wrong version');
    gh.editComment(gh.comment(issue, alice, '/deny'), '/approve');
    gh.comment(issue, dependabot, '/approve');
    gh.comment(issue, alice, 'I would /approve later');
    gh.comment(issue, alice, '/Approve');
    gh.server.resetCalls();
    const read = await approvalChannel().read(posted, signal);
    expect(read.kind === 'present' && read.answers).toEqual([
      { user: 'bob', vote: 'reject', bot: false, at: expect.any(Number), comment: 'wrong version' },
      { user: 'dependabot[bot]', vote: 'approve', bot: true, at: expect.any(Number) },
      { user: 'alice', vote: 'approve', bot: false, at: Date.parse(issue.comments.at(-1)!.created_at) },
    ]);
    expect(gh.server.count('GET', `/repos/acme/deploys/issues/${posted.ref.issue}/comments`)).toBe(2);
  });

  it('after a restart (its own text differs: the deadline moved) the issue found reads as posted; one edited meanwhile as tampered', async () => {
    const posted = (marker: string, until: string) =>
      approvalChannel().post({ text: `Deploy 1.4.2 to prod?\nUntil ${until}.`, marker }, signal);
    const first = await posted('gate-restart', '10:00');
    const found = await posted('gate-restart', '10:05');
    expect(found).toEqual({ ...first, found: true });
    expect((await approvalChannel().read(found, signal)).kind).toBe('present');

    const edited = await posted('gate-restart-edited', '10:00');
    const issue = issueOf(edited);
    gh.editBody(issue, issue.body.replace('to prod', 'to staging'));
    const refound = await posted('gate-restart-edited', '10:05');
    expect(await approvalChannel().read(refound, signal)).toMatchObject({ kind: 'tampered' });
  });

  it('a deleted issue reads as deleted; an edited body, a transfer or a close by someone else as tampered', async () => {
    const deleted = await request('gate-deleted');
    gh.remove(issueOf(deleted));
    expect(await approvalChannel().read(deleted, signal)).toEqual({ kind: 'deleted' });

    const edited = await request('gate-edited');
    gh.comment(issueOf(edited), alice, '/approve');
    gh.script.after(
      1,
      () => gh.editBody(issueOf(edited), 'Deploy 1.4.2 to staging?'),
      `acme/deploys#${edited.ref.issue}`,
    );
    expect(await approvalChannel().read(edited, signal)).toEqual({
      kind: 'tampered',
      detail: expect.stringMatching(
        /^the body of https:\/\/github.com\/acme\/deploys\/issues\/\d+ was edited \(last change 20\d\d-/,
      ),
    });

    const moved = await request('gate-moved');
    gh.remove(issueOf(moved), 'transferred');
    expect(await approvalChannel().read(moved, signal)).toMatchObject({
      kind: 'tampered',
      detail: expect.stringMatching(/transferred/),
    });

    const closed = await request('gate-closed');
    gh.closeIssue(issueOf(closed), alice);
    expect(await approvalChannel().read(closed, signal)).toMatchObject({
      kind: 'tampered',
      detail: expect.stringMatching(/closed by alice/),
    });
  });

  it('members: logins lower-cased, teams expanded over their pages', async () => {
    const crowd = Array.from({ length: 120 }, (_, i) => gh.addUser(`Member${i}`));
    gh.addTeam('acme', 'release-managers', crowd);
    const logins = await approvalChannel().members(['alice', 'acme/release-managers'], signal);
    expect(logins).toEqual(new Set(['alice', ...crowd.map((u) => u.login.toLowerCase())]));
    expect(gh.server.count('GET', '/orgs/acme/teams/release-managers/members')).toBe(2);
    await expect(approvalChannel().members(['acme/nobody'], signal)).rejects.toThrow(
      /404 Not Found: Not Found: no team acme\/nobody/,
    );
  });

  it('conclude comments once and closes the issue as completed, however often it runs', async () => {
    const posted = await request('gate-conclude');
    await approvalChannel().conclude(
      posted,
      { decision: 'Approved by @alice at 12:00', requestText: 'Deploy 1.4.2?' },
      signal,
    );
    await approvalChannel().conclude(
      posted,
      { decision: 'Approved by @alice at 12:00', requestText: 'Deploy 1.4.2?' },
      signal,
    );
    const issue = issueOf(posted);
    expect(issue.comments.map((c) => c.body)).toEqual([
      'Approved by @alice at 12:00\n\n<!-- argo-approval-decision -->',
    ]);
    expect([issue.state, issue.state_reason, issue.closed_by?.login]).toEqual([
      'closed',
      'completed',
      'argo-deployer',
    ]);
  });

  it('a rate limit (429, or 403 with x-ratelimit-remaining 0) is transient with its Retry-After; a bad token names the variable', async () => {
    const posted = await request('gate-limits');
    gh.rateLimit('GET', '/repos/acme/deploys/issues/', 30);
    await expect(approvalChannel().read(posted, signal)).rejects.toMatchObject({
      kind: 'transient',
      status: 429,
      retryAfterMs: 30_000,
    });
    gh.rateLimit('GET', '/repos/acme/deploys/issues/', 60, 1, 403);
    await expect(approvalChannel().read(posted, signal)).rejects.toMatchObject({
      kind: 'transient',
      status: 403,
      retryAfterMs: 60_000,
    });
    await expect(
      approvalChannel('ghp_wrong0000000000000000000000000000').read(posted, signal),
    ).rejects.toThrow(
      /401 Unauthorized: Bad credentials: the token of account "default" is invalid, expired or revoked: the admin renews APPROVALS_GITHUB_TOKEN$/,
    );
  });

  it('a repository the admin did not allow is a config error; so is an account the sidecar lacks', () => {
    const block = (extra: object) => config({ text: 'x', approvers: 'alice', ...extra });
    expect(() => channels().channelFor(block({ repository: 'acme/other' }), access)).toThrow(
      new PluginConfigError(
        'repository: acme/other is not one the admin allows for approval issues (allowed: acme/deploys)',
      ),
    );
    expect(() =>
      channels().channelFor(block({ repository: 'acme/deploys', account: 'ops' }), access),
    ).toThrow(PluginConfigError);
  });
});

describe('GitHub approval settings and config', () => {
  it('accounts need a token and repositories; the API is GitHub unless set', () => {
    const read = readGithubAccounts({
      APPROVALS_GITHUB_TOKEN: 'ghp_default',
      APPROVALS_GITHUB_REPOSITORIES: 'Acme/Deploys, acme/infra',
      APPROVALS_GITHUB_GHES_TOKEN: 'ghp_ghes',
      APPROVALS_GITHUB_GHES_REPOSITORIES: 'ops/deploys',
      APPROVALS_GITHUB_GHES_API_URL: 'https://git.example.com/api/v3/',
      APPROVALS_GITHUB_QA_TOKEN: 'ghp_qa',
      APPROVALS_GITHUB_BAD_TOKEN: 'x',
      APPROVALS_GITHUB_BAD_REPOSITORIES: 'not a repo/',
    });
    expect([...read.accounts]).toEqual([
      [
        'default',
        {
          token: 'ghp_default',
          apiUrl: 'https://api.github.com',
          repositories: new Set(['acme/deploys', 'acme/infra']),
        },
      ],
      [
        'ghes',
        {
          token: 'ghp_ghes',
          apiUrl: 'https://git.example.com/api/v3',
          repositories: new Set(['ops/deploys']),
        },
      ],
    ]);
    expect(read.problems).toEqual([
      'APPROVALS_GITHUB_BAD_REPOSITORIES: must be repositories as owner/name, separated by commas or spaces',
      'APPROVALS_GITHUB_QA_REPOSITORIES: is required with APPROVALS_GITHUB_QA_TOKEN',
    ]);
  });

  it('approvers are logins and org/team-slug; the repository is owner/name', () => {
    expect(
      config({ repository: 'acme/deploys', text: 'x', approvers: '@Alice acme/Release-Managers' }).approvers,
    ).toEqual(['alice', 'acme/release-managers']);
    const result = validatePluginConfig(GithubApprovalConfig, {
      repository: 'deploys',
      text: 'x',
      approvers: 'a/b/c',
    });
    expect(result.ok ? [] : result.problems).toEqual([
      'repository: must be a repository as owner/name',
      'approvers: must be 1 to 50 approvers: logins (octocat or @octocat) or teams (org/team-slug)',
    ]);
  });
});
