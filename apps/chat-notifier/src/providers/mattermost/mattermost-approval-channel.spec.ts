import { NamespaceScopes, PluginConfigError, Redactor, UpstreamError } from '@app/plugin-kit';
import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import { MattermostStandIn } from '../../../stand-ins/mattermost/mattermost.stand-in.js';
import type { MmChannel, MmUser } from '../../../stand-ins/mattermost/mattermost-state.js';
import type { PostedRequest } from '../../approvals/approval-channel.js';
import { MattermostApprovalConfig } from './mattermost-approval-config.dto.js';
import {
  APPROVAL_MARKER_PROP,
  MattermostApprovalChannels,
  MattermostApprovalChannel,
} from './mattermost-approval-channel.js';

const TOKEN = 'mmtest0bot0token0approvals000000';
const signal = new AbortController().signal;
const access = { scopes: NamespaceScopes.unrestricted, namespace: 'argo' };

describe('MattermostApprovalChannel against the Mattermost stand-in', () => {
  let mm: MattermostStandIn;
  let bot: MmUser;
  let alice: MmUser;
  let bob: MmUser;
  let helper: MmUser;
  let deploys: MmChannel;

  beforeAll(async () => {
    mm = await new MattermostStandIn().start();
    bot = mm.addBot('argo-bot', TOKEN);
    alice = mm.state.addUser('alice', false, 'Alice@Example.com');
    bob = mm.state.addUser('bob');
    helper = mm.state.addUser('helper-bot', true);
    const team = mm.state.addTeam('eng', [bot, alice, bob, helper]);
    deploys = mm.state.addChannel(team, 'deploys', [bot, alice, bob, helper]);
  });
  afterAll(() => mm.close());

  const channels = (token = TOKEN) =>
    new MattermostApprovalChannels(
      { servers: new Map([['default', { url: mm.url, token }]]), dedupLookback: 200 },
      new Redactor(),
      2000,
    );
  const approvalChannel = (token = TOKEN): MattermostApprovalChannel =>
    channels(token).channelFor(
      config({ channel: deploys.id, text: 'Deploy 1.4.2?', approvers: 'alice' }),
      access,
    );
  const request = async (marker: string, text = 'Deploy 1.4.2?') =>
    approvalChannel().post({ text, marker }, signal);

  it("excludeCreator: the creator's account by email (any case); none for an unknown email or a username only", async () => {
    const channel = approvalChannel();
    expect(await channel.creatorAccounts({ email: 'alice@example.com' }, signal)).toEqual(
      new Set([alice.id]),
    );
    expect(await channel.creatorAccounts({ email: 'nobody@example.com' }, signal)).toEqual(new Set());
    mm.server.resetCalls();
    expect(await channel.creatorAccounts({ username: 'alice', subject: 'alice' }, signal)).toEqual(new Set());
    expect(mm.server.calls).toHaveLength(0); // a username is no identity the gate trusts
  });

  it('excludeCreator: a server that hides emails (403) fails the look-up, saying so', async () => {
    mm.state.showEmailAddress = false;
    try {
      const failing = approvalChannel().creatorAccounts({ email: 'alice@example.com' }, signal);
      await expect(failing).rejects.toThrow(/Show Email Address/);
      await expect(failing).rejects.toMatchObject({ status: 403, transient: false });
    } finally {
      mm.state.showEmailAddress = true;
    }
  });
  const answers = async (posted: PostedRequest) => {
    const state = await approvalChannel().read(posted, signal);
    if (state.kind !== 'present') throw new Error(`not present: ${state.kind}`);
    return state.answers.map(({ user, vote, bot, comment }) => ({
      user,
      vote,
      bot,
      ...(comment && { comment }),
    }));
  };

  it('posts the request once: a restarted reader finds it by its marker instead of posting again', async () => {
    const first = await request('gate-once');
    const again = await request('gate-once');
    expect(again).toEqual({ ...first, found: true });
    expect(first.author).toBe(bot.id);
    expect(first.url).toBe(`${mm.url}/_redirect/pl/${first.ref.post}`);
    const mine = mm.posts(deploys).filter((p) => p.props[APPROVAL_MARKER_PROP] === 'gate-once');
    expect(mine).toHaveLength(1);
    expect(first).toMatchObject({ postedAt: mine[0]!.create_at, found: false });
  });

  it('an approver who reacts after two reads is seen from the second read on', async () => {
    const posted = await request('gate-react');
    mm.script.after(2, (id) => mm.react(id, alice, '+1'), posted.ref.post);
    expect(await answers(posted)).toEqual([]);
    expect(await answers(posted)).toEqual([{ user: alice.id, vote: 'approve', bot: false }]);
  });

  it('reactions and thread replies vote; other emoji, chatter, edited replies do not; bots are marked', async () => {
    const posted = await request('gate-mixed');
    const id = posted.ref.post!;
    mm.react(id, bob, 'x');
    mm.react(id, alice, 'tada');
    mm.react(id, helper, 'white_check_mark');
    mm.reply(id, alice, 'Approve, checked the changelog');
    mm.reply(id, bob, 'looks good to me');
    mm.edit(mm.reply(id, bob, 'approve').id, 'approve');
    mm.reply(id, bot, 'approve', { from_bot: 'true' });
    expect(await answers(posted)).toEqual([
      { user: bob.id, vote: 'reject', bot: false },
      { user: helper.id, vote: 'approve', bot: true },
      { user: alice.id, vote: 'approve', bot: false, comment: 'checked the changelog' },
      { user: bot.id, vote: 'approve', bot: true },
    ]);
  });

  it('a withdrawn reaction is no answer any more', async () => {
    const posted = await request('gate-withdraw');
    mm.react(posted.ref.post!, alice, '+1');
    expect(await answers(posted)).toHaveLength(1);
    mm.unreact(posted.ref.post!, alice, '+1');
    expect(await answers(posted)).toEqual([]);
  });

  it('after a restart (its own text differs: the deadline moved) the post found reads as posted; one edited meanwhile as tampered', async () => {
    const first = await request('gate-restart', 'Deploy 1.4.2?\nUntil 10:00.');
    const found = await request('gate-restart', 'Deploy 1.4.2?\nUntil 10:05.');
    expect(found).toEqual({ ...first, found: true });
    expect((await approvalChannel().read(found, signal)).kind).toBe('present');

    const edited = await request('gate-restart-edited', 'Deploy 1.4.2?\nUntil 10:00.');
    mm.edit(edited.ref.post!, 'Deploy 1.4.2 to staging?\nUntil 10:00.');
    const refound = await request('gate-restart-edited', 'Deploy 1.4.2?\nUntil 10:05.');
    expect(await approvalChannel().read(refound, signal)).toMatchObject({ kind: 'tampered' });
  });

  it('a deleted request reads as deleted; an edited one as tampered, never as answers', async () => {
    const deleted = await request('gate-deleted');
    mm.script.after(1, (id) => mm.deletePost(id), deleted.ref.post);
    expect(await approvalChannel().read(deleted, signal)).toEqual({ kind: 'deleted' });

    const edited = await request('gate-edited');
    mm.react(edited.ref.post!, alice, '+1');
    mm.edit(edited.ref.post!, 'Deploy 1.4.2 to staging?');
    const state = await approvalChannel().read(edited, signal);
    expect(state).toEqual({
      kind: 'tampered',
      detail: expect.stringMatching(/edited at .*not what was posted/),
    });
  });

  it('members: user IDs as they are, usernames resolved, a group expanded over its pages', async () => {
    const many = Array.from({ length: 205 }, (_, i) => mm.state.addUser(`member${i}`));
    const group = mm.state.addGroup('release-managers', many);
    const ids = await approvalChannel().members(
      [bob.id, 'alice', 'nobody-here', `group:${group.id}`],
      signal,
    );
    expect(ids).toEqual(new Set([bob.id, alice.id, ...many.map((u) => u.id)]));
    expect(mm.server.count('GET', `/api/v4/groups/${group.id}/members`)).toBe(2);
  });

  it('conclude appends the decision once, however often it is called', async () => {
    const posted = await request('gate-conclude');
    await approvalChannel().conclude(
      posted,
      { decision: 'Approved by @alice', requestText: 'Deploy 1.4.2?' },
      signal,
    );
    await approvalChannel().conclude(
      posted,
      { decision: 'Approved by @alice', requestText: 'Deploy 1.4.2?' },
      signal,
    );
    expect(mm.state.posts.get(posted.ref.post!)!.message).toBe('Deploy 1.4.2?\n\nApproved by @alice');
    expect(mm.okCalls('PUT', `/api/v4/posts/${posted.ref.post}/patch`)).toBe(1);
  });

  it('a 429 is a transient error with the Retry-After; a wrong token names the variable', async () => {
    const posted = await request('gate-429');
    mm.rateLimitRoute('GET', '/api/v4/posts/', 3, 'limit exceeded\n');
    const limited = await approvalChannel()
      .read(posted, signal)
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(UpstreamError);
    expect(limited).toMatchObject({ kind: 'transient', status: 429, retryAfterMs: 3000 });
    await expect(approvalChannel('mmwrong0token000000000000000000').read(posted, signal)).rejects.toThrow(
      /401 Unauthorized: Invalid or expired session.*the admin renews MATTERMOST_TOKEN$/,
    );
  });

  it('a server the sidecar does not have is a config error naming the field', () => {
    expect(() =>
      channels().channelFor(
        config({ channel: deploys.id, text: 'x', approvers: 'alice', server: 'ops' }),
        access,
      ),
    ).toThrow(PluginConfigError);
  });
});

function config(body: object): MattermostApprovalConfig {
  const result = validatePluginConfig(MattermostApprovalConfig, body);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
}

describe('MattermostApprovalConfig', () => {
  const problems = (body: object) => {
    const result = validatePluginConfig(MattermostApprovalConfig, body);
    return result.ok ? [] : result.problems;
  };
  const ID = 'abcdefghijklmnopqrstuvwxyz';

  it('a channel ID, the text and approvers as users, usernames and groups', () => {
    const ok = config({ channel: ID, text: 'Deploy?', approvers: `@Alice, ${ID} group:${ID}` });
    expect(ok.approvers).toEqual(['alice', ID, `group:${ID}`]);
    expect(problems({ channel: 'deploys', text: 'x', approvers: 'alice' })).toEqual([
      'channel: must be a channel ID (26 characters: channel menu → View Info)',
    ]);
    expect(problems({ channel: ID, text: '', approvers: 'alice' })).toEqual([
      'text: must be 1 to 16000 characters',
    ]);
    expect(problems({ channel: ID, text: 'x', approvers: ['here'] })).toEqual([
      'approvers: must be 1 to 50 approvers: user IDs, usernames (alice or @alice) or user groups (group:<group ID>); here, channel and all are not people',
    ]);
    expect(problems({ channel: ID, text: 'x' })).toHaveLength(1);
  });
});
