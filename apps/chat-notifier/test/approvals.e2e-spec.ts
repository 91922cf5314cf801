import { marshalExecuteTemplateArgs, PluginRpcClient, type AgentPlugin } from '@app/argo-agent';
import { executeArgs, runWorkflow } from '@app/local-agent';
import { withApprovalScopes } from '../demo/upstreams.js';
import {
  ALICE,
  ALICE_CREATOR,
  CREATOR_FROM_LABELS,
  BOB,
  byRule,
  decidersOf,
  DECISION_LINE,
  DEPLOY_BOT,
  gateWorkflow,
  PROVIDER_SUPPORT,
  PROVIDERS,
  providerRows,
  react,
  sortedIds,
  REQUEST_TEXT,
  REQUEST_URL,
  slackApprovalRows,
  type ApprovalRow,
} from './approval-table.js';
import {
  expectedByRule,
  perform,
  rulesOf,
  startApprovalWorld,
  type ApprovalWorld,
  type Person,
} from './approval-worlds.js';
import { startNotifier, startSlackFixture, type PluginFixture, type SlackFixture } from './support.js';

interface Case extends ApprovalRow {
  /** Done to the stand-in or the sidecar before the run (rate limits), or during it (a restart). */
  setup?: (f: SlackFixture, plugin: AgentPlugin) => RunHooks;
}

interface RunHooks {
  onEvent?: Parameters<typeof runWorkflow>[1]['onEvent'];
  done?: () => Promise<void>;
}

/** The table's events as the local agent stages them. */
const EVENTS: Record<NonNullable<ApprovalRow['event']>, NonNullable<Case['setup']>> = {
  'rate-limited': (f) => {
    // The pause holds in real time (the sidecar's limiter), not in the agent's scaled time: a short Retry-After.
    f.ws.slack.rateLimit('reactions.get', 3);
    const requeues: number[] = [];
    return {
      onEvent: (e) => e.kind === 'requeue' && requeues.push(e.requeueMs!),
      // Retry-After is 3 s from the 429; the requeue is what is left of it when the call answers.
      done: async () => expect(Math.max(...requeues)).toBeGreaterThan(2_000),
    };
  },
  restart: (f, plugin) => restartAfterPost(f, plugin, 0),
};

const cases: Case[] = [
  // A row only for the real shared agent: its case through the local agent is the test that sends labels below.
  ...slackApprovalRows({ withdrawTimeout: '3s' })
    .filter((row) => row.only === undefined)
    .map((row) => ({
      ...row,
      setup: row.event && EVENTS[row.event],
    })),
  {
    name: 'a restart after the post keeps the deadline: the timeout counts from the post, not from the restart',
    body: { timeout: '3s' },
    script: () => [],
    setup: (f, plugin) => {
      // The new sidecar comes up 1.5 s into the 3 s: a fresh timeout would end at 4.5 s or later.
      const restart = restartAfterPost(f, plugin, 1500);
      return {
        ...restart,
        done: async () => {
          await restart.done();
          const postedAt = slackMillis(f.ws.slack.posts(f.ws.builds)[0]!.ts);
          const concludedAt = f.ws.slack.okCalls('chat.update')[0]!.at;
          expect(concludedAt - postedAt).toBeGreaterThanOrEqual(3000);
          expect(concludedAt - postedAt).toBeLessThan(4000);
        },
      };
    },
    phase: 'Failed',
    decision: 'timeout',
    decidedBy: '',
    concluded: /:hourglass: No decision within 3s; the gate failed/,
    message: /^no decision within 3s; the gate failed: https:/,
  },
  {
    name: "a non-approver's copy of the request (its metadata too), posted before a restart, is not adopted: bob's reject on the real one decides",
    body: { timeout: '3s' },
    script: () => [],
    setup: (f, plugin) => restartAfterPost(f, plugin, 0, () => forgeAndReject(f)),
    phase: 'Failed',
    decision: 'rejected',
    decidedBy: BOB,
    concluded: /:x: Rejected by <@U0BOB00001>/,
    message: /^rejected by U0BOB00001 /,
  },
];

const MALLORY = 'U0MALLORY1';

/**
 * Mallory, in the channel but no approver, copies the request with its metadata through the Web API with her
 * own user token; then bob rejects the real request.
 */
async function forgeAndReject(f: SlackFixture): Promise<void> {
  const token = 'xoxp-0000000000-mallory-user-token';
  if (!f.ws.builds.members.has(MALLORY)) {
    f.ws.builds.members.add(MALLORY);
    f.ws.slack.addUserToken(f.ws.team, MALLORY, token);
  }
  const real = f.ws.slack.posts(f.ws.builds)[0]!;
  const res = await fetch(`${f.ws.slack.apiUrl}chat.postMessage`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ channel: f.ws.builds.id, text: real.text, metadata: real.metadata }),
  });
  expect(await res.json()).toMatchObject({ ok: true, message: { user: MALLORY } });
  f.ws.slack.react(f.ws.builds, real.ts, BOB, 'x');
}

/** The two ways a decided gate's answers change after its sidecar restarts (SIGKILL: its ledger is gone). */
const CHANGED_AFTER_DECISION = [
  ['approved, then the approver withdraws and another approver rejects', 'approved'],
  ['rejected, then the rejecter withdraws and an approver approves', 'rejected'],
  ['timed out (Failed), then an approver approves', 'timeout'],
] as const;

/**
 * Runs `wf` to its decision, restarts the sidecar, lets `change` alter the answers, and sends the same call
 * again, as an agent or a replica does when it died before the result was written: the reply must be the
 * decision taken, with the same outputs.
 */
async function decisionStands(
  wf: ReturnType<typeof gateWorkflow>,
  plugin: AgentPlugin,
  restart: () => Promise<{ url: string }>,
  change: () => void,
): Promise<{ phase: string; comment?: string }> {
  const first = await runWorkflow(wf, { plugins: [plugin], timeScale: 0.01 });
  const decided = first.node('gate')!;
  plugin.url = (await restart()).url;
  change();
  const client = new PluginRpcClient(plugin);
  const template = (wf.spec as { templates: Array<Record<string, unknown>> }).templates[1]!;
  const body = marshalExecuteTemplateArgs(
    { name: first.name, namespace: first.namespace, uid: first.uid },
    template,
  );
  for (let call = 0; call < 2; call++) {
    const { node } = (await client.executeTemplate(body)) as { node?: typeof decided };
    expect({ phase: node?.phase, message: node?.message, outputs: node?.outputs }).toEqual({
      phase: decided.phase,
      message: decided.message,
      outputs: decided.outputs,
    });
  }
  const comment = decided.outputs?.parameters?.find((p) => p.name === 'comment')?.value;
  return { phase: decided.phase, comment };
}

/** A Slack `ts` (seconds.microseconds) in ms since the epoch. */
const slackMillis = (ts: string) => Math.round(Number(ts) * 1000);

/**
 * Restarts the sidecar `delayMs` after the gate's first requeue (the request is posted by then); `done` waits
 * for the new sidecar and checks that it found the request instead of posting again.
 */
function restartAfterPost(
  f: SlackFixture,
  plugin: AgentPlugin,
  delayMs: number,
  whileDown: () => Promise<void> = async () => undefined,
) {
  let restarted: Promise<void> | undefined;
  return {
    onEvent: (event: { kind: string }) => {
      if (event.kind !== 'requeue' || restarted) return;
      restarted = new Promise((resolve) => setTimeout(resolve, delayMs)).then(async () => {
        plugin.url = 'http://127.0.0.1:9'; // the old container is gone until the new one listens
        await whileDown();
        return f.restart().then((h) => {
          plugin.url = h.url;
        });
      });
    },
    done: async () => {
      await restarted;
      expect(f.h.logs.some((l) => String(l.msg).includes('already posted its request'))).toBe(true);
    },
  };
}

describe('approval gates through the local agent (Slack)', () => {
  let f: SlackFixture;
  let plugin: AgentPlugin;
  beforeEach(async () => {
    f = await startSlackFixture();
    withApprovalScopes(f.ws);
    f.ws.team.addUser('deploy-bot', DEPLOY_BOT, { bot: true });
    plugin = { name: 'chat-notifier', url: f.h.url, token: f.h.token };
  });
  afterEach(() => f.close());

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    f.ws.slack.approverScript = c.script(f.ws.bot.userId);
    const hooks = c.setup?.(f, plugin) ?? {};
    const progress: string[] = [];
    const result = await runWorkflow(
      gateWorkflow(
        {
          slack: {
            channel: '#builds',
            text: 'Deploy 1.4.2 to prod?',
            approvers: c.approvers ?? [ALICE, BOB],
          },
          ...c.body,
        },
        false,
        c.labels,
      ),
      {
        plugins: [plugin],
        timeScale: 0.01,
        rpc: { backoffMs: 50 },
        onEvent: (event) => {
          if (event.kind === 'requeue' && event.node.message) progress.push(event.node.message);
          hooks.onEvent?.(event);
        },
      },
    );
    await hooks.done?.();
    const gate = result.node('gate')!;
    const out = Object.fromEntries((gate.outputs?.parameters ?? []).map((p) => [p.name, p.value]));
    const posts = f.ws.slack.okCalls('chat.postMessage').filter((p) => p.userId === f.ws.bot.userId);
    expect({
      phase: gate.phase,
      decision: out.decision,
      approvers: out.approvers,
      posts: posts.length,
    }).toEqual({
      phase: c.phase,
      decision: c.decision,
      approvers: c.decidedBy,
      posts: c.posts ?? 1,
    });
    expect(gate.message).toMatch(c.message);
    if (c.ruleApprovers !== undefined) expect(out.ruleApprovers).toBe(c.ruleApprovers);
    expect({ comment: out.comment, deciders: decidersOf(out.decisions) }).toEqual({
      comment: c.comment ?? '',
      deciders: c.decidedBy,
    });
    if (c.decision0) expect(out.decisions!.split('\n')[0]).toMatch(c.decision0);
    if (c.progress) expect(progress).toContainEqual(expect.stringMatching(c.progress));
    expect(out.url).toMatch(c.posts === 0 ? /^$/ : REQUEST_URL);
    expect(new Date(out.decidedAt!).getTime()).toBeGreaterThan(result.startedAt - 1000);
    const request = f.ws.slack.posts(f.ws.builds)[0] ?? { text: '', subtype: 'gone' };
    if (c.posts !== 0) expect(String(posts[0]!.args.text)).toMatch(REQUEST_TEXT);
    if (c.concluded) expect(request.text).toMatch(c.concluded);
    else expect(request.subtype).toBe('gone');
  });

  it("excludeCreator under the shared agent: the creator comes from the Workflow's labels, a false one in the body does not count", async () => {
    // alice created the workflow (the agent says so) and names bob as the creator in the body.
    f.ws.slack.approverScript = [react(1, ALICE)];
    const wf = gateWorkflow({
      slack: { channel: '#builds', text: 'Deploy 1.4.2 to prod?', approvers: [ALICE, BOB] },
      excludeCreator: true,
      creator: 'bob@example.com',
    });
    f.ws.team.addUser('bob', BOB, { email: 'bob@example.com' });
    const template = (wf.spec as { templates: Array<Record<string, unknown>> }).templates[1]!;
    const meta = { name: 'shipped', namespace: 'argo', uid: 'uid-shipped', labels: ALICE_CREATOR };
    const client = new PluginRpcClient(plugin);
    const messages: Array<string | undefined> = [];
    for (let call = 0; call < 5; call++) {
      const reply = (await client.executeTemplate(marshalExecuteTemplateArgs(meta, template))) as {
        node?: { phase?: string; message?: string };
      };
      expect(reply.node?.phase).toBe('Running');
      messages.push(reply.node?.message);
    }
    expect(messages[4]).toMatch(
      /^waiting for approval: 0 of 1 approvals \(not counted: U0ALICE001, the workflow's creator\)/,
    );
    expect(f.ws.slack.posts(f.ws.builds)[0]!.text).toContain(
      "The workflow's creator (<@U0ALICE001>) cannot approve it.",
    );
    // Through Argo's agent (no labels) the body's creator is the one there is: alice's approval counts.
    const result = await runWorkflow(wf, { plugins: [plugin], timeScale: 0.01 });
    expect(result.node('gate')).toMatchObject({
      phase: 'Succeeded',
      message: expect.stringMatching(/^approved by U0ALICE001 /),
    });
  });

  it('the decision is repeated identically on every later call (a Failed one too)', async () => {
    f.ws.slack.approverScript = [react(1, BOB, '-1')];
    const wf = gateWorkflow({ slack: { channel: '#builds', text: 'Again?', approvers: [BOB] } });
    const first = await runWorkflow(wf, { plugins: [plugin], timeScale: 0.01 });
    expect(first.phase).toBe('Failed');
    // Argo calls again after a final reply that carried a requeue; a retry of the node asks once more.
    const client = new PluginRpcClient(plugin);
    const wfMeta = { name: first.name, namespace: first.namespace, uid: first.uid };
    const template = (wf.spec as { templates: Array<Record<string, unknown>> }).templates[1]!;
    const body = marshalExecuteTemplateArgs(wfMeta, template);
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(JSON.stringify(await client.executeTemplate(body)));
    expect(new Set(replies).size).toBe(1);
    expect(JSON.parse(replies[0]!).node.message).toBe(first.node('gate')!.message);
    expect(f.ws.slack.posts(f.ws.builds)).toHaveLength(1);
    expect(f.ws.slack.okCalls('chat.update')).toHaveLength(1);
  });

  it('a deleted request stays decided after the sidecar restarts: the same outputs, nothing posted again', async () => {
    f.ws.slack.approverScript = [{ afterPolls: 1, delete: true }];
    const wf = gateWorkflow({ slack: { channel: '#builds', text: 'Ship it?', approvers: [ALICE, BOB] } });
    const { phase } = await decisionStands(
      wf,
      plugin,
      () => f.restart(),
      () => (f.ws.slack.approverScript = []),
    );
    expect(phase).toBe('Failed');
    // The request, then the record that took its place; nothing after the restart.
    const posts = f.ws.slack.okCalls('chat.postMessage').filter((p) => p.userId === f.ws.bot.userId);
    expect(posts).toHaveLength(2);
  });

  it.each(CHANGED_AFTER_DECISION)(
    'a decision stands after the sidecar restarts: %s',
    async (_name, first) => {
      f.ws.slack.approverScript =
        first === 'approved'
          ? [react(1, ALICE)]
          : first === 'rejected'
            ? [react(1, BOB, 'x'), { afterPolls: 1, user: BOB, reply: 'reject: not on Friday' }]
            : [];
      const wf = gateWorkflow({
        slack: { channel: '#builds', text: 'Ship it?', approvers: [ALICE, BOB] },
        ...(first === 'timeout' && { timeout: '1s' }),
      });
      const { phase, comment } = await decisionStands(
        wf,
        plugin,
        () => f.restart(),
        () => {
          f.ws.slack.approverScript = [];
          const { ts } = f.ws.slack.posts(f.ws.builds)[0]!;
          if (first === 'approved') {
            f.ws.slack.unreact(f.ws.builds, ts, ALICE, 'white_check_mark');
            f.ws.slack.react(f.ws.builds, ts, BOB, 'x');
          } else {
            if (first === 'rejected') f.ws.slack.unreact(f.ws.builds, ts, BOB, 'x');
            f.ws.slack.react(f.ws.builds, ts, ALICE, 'white_check_mark');
          }
        },
      );
      expect(phase).toBe(first === 'approved' ? 'Succeeded' : 'Failed');
      // The restarted sidecar's outputs (equal to the first ones) carry the reject's reason.
      expect(comment).toBe(first === 'rejected' ? 'not on Friday' : '');
      expect(f.ws.slack.posts(f.ws.builds)).toHaveLength(1);
    },
  );

  it("a comment with Slack's control characters is shown as written and read back the same after a restart", async () => {
    f.ws.slack.approverScript = [{ afterPolls: 1, user: BOB, reply: 'reject: <!channel> & <b>' }];
    const wf = gateWorkflow({ slack: { channel: '#builds', text: 'Ship it?', approvers: [ALICE, BOB] } });
    const { phase, comment } = await decisionStands(
      wf,
      plugin,
      () => f.restart(),
      () => (f.ws.slack.approverScript = []),
    );
    expect({ phase, comment }).toEqual({ phase: 'Failed', comment: '<!channel> & <b>' });
    // The decision line carries the comment escaped: no mention of the channel, no tag.
    const shown = f.ws.slack.posts(f.ws.builds)[0]!.text;
    expect(shown).toContain(': &lt;!channel&gt; &amp; &lt;b&gt;');
    expect(shown).not.toContain('<!channel>');
  });

  it('NAMESPACE_SCOPES: a gate may use a workspace only from the namespaces it is open to', async () => {
    const ops = f.ws.slack.addTeam('ops');
    const opsToken = 'xoxb-ops-0000000000-000000000000-approvalscope';
    const opsBot = f.ws.slack.addBot(ops, opsToken);
    for (const scope of ['chat:write', 'channels:read', 'channels:history', 'reactions:read'])
      opsBot.scopes.add(scope);
    const releases = ops.addChannel('releases', { members: [opsBot.userId] });
    const scoped = await startSlackFixture(
      { SLACK_BOT_TOKEN_OPS: opsToken, NAMESPACE_SCOPES: 'slack/ops=prod-*' },
      f.ws,
    );
    const gate = (namespace: string) =>
      scoped.h.execute(
        executeArgs(
          {
            approve: { slack: { channel: '#releases', text: 'Ship?', approvers: [ALICE], workspace: 'ops' } },
          },
          { workflow: { namespace } },
        ),
      );
    try {
      const refused = await gate('team-a');
      expect(refused.body.node).toEqual({
        phase: 'Failed',
        message:
          'approve: invalid config: slack.workspace: no Slack workspace "ops" for namespace team-a (known: default (no workspace)); the admin adds one with SLACK_OPS_BOT_TOKEN',
      });
      expect(releases.messages).toEqual([]);
      const allowed = await gate('prod-payments');
      expect(allowed.body.node?.phase).toBe('Running');
      expect(releases.messages.map((m) => m.text)).toEqual([
        expect.stringMatching(/^Ship\?\n\nNeeds one approval/),
      ]);
    } finally {
      await scoped.close();
    }
  });

  it('rules: minApprovals beside them, or a rule that stands for nobody, fails naming the field', async () => {
    const beside = await runWorkflow(
      gateWorkflow({
        slack: { channel: '#builds', text: 'x', approvers: [ALICE] },
        minApprovals: 2,
        rules: [{ approvers: [ALICE] }],
      }),
      { plugins: [plugin], timeScale: 0.01 },
    );
    expect(beside.node('gate')!.message).toBe(
      'approve: invalid config: minApprovals: with rules, each rule has its own minApprovals',
    );
    const nobody = await runWorkflow(
      gateWorkflow({
        slack: { channel: '#builds', text: 'x', approvers: [ALICE] },
        rules: [{ approvers: [ALICE] }, { approvers: ['@nobody'] }],
      }),
      { plugins: [plugin], timeScale: 0.01 },
    );
    expect(nobody.node('gate')!.message).toBe(
      'approve: invalid config: rules.1.approvers: no user group @nobody in workspace "default"',
    );
    expect(f.ws.slack.okCalls('chat.postMessage')).toHaveLength(0);
  });

  it('a bad body fails the node naming the field; notify: {approve: …} is refused', async () => {
    const bad = await runWorkflow(
      gateWorkflow({ slack: { channel: '#builds', text: 'x', approvers: ['alice'] }, onTimeout: 'maybe' }),
      { plugins: [plugin], timeScale: 0.01 },
    );
    expect(bad.node('gate')!.message).toBe(
      'approve: invalid config: slack.approvers: entry 0 ("alice") is not a user ID (U…), a user group ID (S…) or a group handle (@name); display names like @alice cannot be checked; onTimeout: must be one of fail, approve, reject',
    );
    const unknownGroup = await runWorkflow(
      gateWorkflow({ slack: { channel: '#builds', text: 'x', approvers: ['@nobody'] } }),
      { plugins: [plugin], timeScale: 0.01 },
    );
    expect(unknownGroup.node('gate')!.message).toBe(
      'approve: invalid config: slack.approvers: no user group @nobody in workspace "default"',
    );
    const underNotify = await runWorkflow(
      gateWorkflow({ slack: { channel: '#builds', text: 'x', approvers: [ALICE] } }, true),
      { plugins: [plugin], timeScale: 0.01 },
    );
    expect(underNotify.node('gate')!.message).toBe(
      'notify: invalid config: approve: is a key of its own (plugin: {approve: {...}}), not a block of notify',
    );
    expect(f.ws.slack.okCalls('chat.postMessage')).toHaveLength(0);
  });
});

describe.each(PROVIDERS)('approval gates through the local agent (%s)', (key) => {
  const SUPPORT = PROVIDER_SUPPORT[key];
  let world: ApprovalWorld;
  let fixture: PluginFixture;
  let plugin: AgentPlugin;
  beforeEach(async () => {
    world = await startApprovalWorld(key);
    fixture = await startNotifier(world.env);
    plugin = { name: 'chat-notifier', url: fixture.h.url, token: fixture.h.token };
  });
  afterEach(async () => {
    await fixture.close();
    await world.close();
  });

  if (!SUPPORT.rules)
    it('rules are refused naming the field', async () => {
      const result = await runWorkflow(
        gateWorkflow({
          [key]: world.block([world.people.alice.ref]),
          rules: [{ approvers: [world.people.alice.ref] }],
        }),
        { plugins: [plugin], timeScale: 0.01 },
      );
      expect(result.node('gate')!.message).toBe(
        `approve: invalid config: rules: not supported by ${key} approval gates (docs/approvals.md)`,
      );
    });

  // Where answers carry no words (Discord's reactions), requireComment is refused.
  if (!SUPPORT.inWords)
    it('requireComment is refused naming the field', async () => {
      const result = await runWorkflow(
        gateWorkflow({ [key]: world.block([world.people.alice.ref]), requireComment: true }),
        { plugins: [plugin], timeScale: 0.01 },
      );
      expect(result.node('gate')!.message).toBe(
        `approve: invalid config: requireComment: not supported by ${key} approval gates (docs/approvals.md)`,
      );
      expect(world.posted()).toBe(0);
    });

  if (!SUPPORT.creatorLookup)
    it('excludeCreator is refused naming the field: no creator look-up here', async () => {
      const result = await runWorkflow(
        gateWorkflow({
          [key]: world.block([world.people.alice.ref]),
          excludeCreator: true,
          creator: 'alice@example.com',
        }),
        { plugins: [plugin], timeScale: 0.01 },
      );
      expect(result.node('gate')!.message).toBe(
        `approve: invalid config: excludeCreator: not supported by ${key} approval gates (docs/approvals.md)`,
      );
    });

  /** Runs a gate with excludeCreator, alice the creator by her label; answers the node. */
  async function creatorGate(labels: Record<string, string>) {
    const result = await runWorkflow(
      gateWorkflow(
        {
          [key]: world.block([world.people.alice.ref, world.people.bob.ref]),
          excludeCreator: true,
          creator: CREATOR_FROM_LABELS,
        },
        false,
        labels,
      ),
      { plugins: [plugin], timeScale: 0.01 },
    );
    return { gate: result.node('gate')! };
  }

  if (SUPPORT.creatorLookup)
    it("excludeCreator: a server that hides emails from the gate's account fails it closed, saying so", async () => {
      world.hideEmails!();
      const { gate } = await creatorGate(ALICE_CREATOR);
      expect(gate.phase).toBe('Failed');
      expect(gate.message).toMatch(/Show Email Address/);
      expect(world.posted()).toBe(0);
    });

  it.each(providerRows(key).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { people } = world;
    for (const step of c.steps) world.script.after(step.after, (request) => perform(world, step, request));
    let restarted: Promise<void> | undefined;
    const progress: string[] = [];
    const result = await runWorkflow(
      gateWorkflow(
        {
          [key]: world.block((c.approvers ?? ['alice', 'bob']).map((p) => people[p].ref)),
          ...(c.rules && { rules: rulesOf(c, world) }),
          ...c.body,
        },
        false,
        c.labels,
      ),
      {
        plugins: [plugin],
        timeScale: 0.01,
        rpc: { backoffMs: 50 },
        onEvent: (event) => {
          if (event.kind === 'requeue' && event.node.message) progress.push(event.node.message);
          if (!c.restart || event.kind !== 'requeue' || restarted) return;
          plugin.url = 'http://127.0.0.1:9'; // the old container is gone until the new one listens
          const before = c.forge
            ? world.forge().then((real) => world.reject(real, 'bob'))
            : Promise.resolve();
          restarted = before
            .then(() => fixture.restart())
            .then((h) => {
              plugin.url = h.url;
            });
        },
      },
    );
    await restarted;
    const gate = result.node('gate')!;
    const out = Object.fromEntries((gate.outputs?.parameters ?? []).map((p) => [p.name, p.value]));
    const decidedBy = sortedIds((c.decidedBy ?? []).map((p) => people[p].id).join(','));
    expect({
      phase: gate.phase,
      decision: out.decision,
      approvers: sortedIds(out.approvers),
      // A forged copy is a post too (by someone else); a deleted request's record is the gate's second.
      posted: world.posted() - (c.forge ? 1 : 0) - (c.decision === 'deleted' ? 1 : 0),
      restarted: restarted !== undefined,
      comment: out.comment,
      deciders: sortedIds(decidersOf(out.decisions)),
      ...(c.ruleApprovers && { ruleApprovers: byRule(out.ruleApprovers) }),
    }).toEqual({
      phase: c.phase,
      decision: c.decision,
      approvers: decidedBy,
      posted: c.posts ?? 1,
      restarted: c.restart === true,
      comment: c.comment ?? '',
      deciders: decidedBy,
      ...(c.ruleApprovers && { ruleApprovers: expectedByRule(c.ruleApprovers, world) }),
    });
    expect(gate.message).toMatch(c.message);
    expect(out.url).toMatch(c.posts === 0 ? /^$/ : world.url);
    expect(new Date(out.decidedAt!).getTime()).toBeGreaterThan(result.startedAt - 1000);
    // After a restart the new sidecar looked for its request (and found it: one post).
    if (c.restart) expect(world.searches()).toBeGreaterThanOrEqual(2);
    if (c.excluded) {
      const excluded = people[c.excluded].id;
      expect(progress).toContainEqual(
        expect.stringContaining(`(not counted: ${excluded}, the workflow's creator)`),
      );
      expect(world.shown()).toContain(`The workflow's creator (${excluded}) cannot approve it.`);
    }
    // The request shows its text once, and a decision's line (that of a timeout too) under it.
    const shown = world.shown();
    if (c.posts === 0) {
      expect(shown).toBe('');
    } else if (c.decision === 'deleted') {
      expect(shown).not.toContain('Deploy 1.4.2 to prod?');
      expect(shown).toMatch(/:wastebasket: Deleted before a decision: \S+; the gate failed safely at /);
    } else {
      expect(shown.split('Deploy 1.4.2 to prod?')).toHaveLength(c.forge ? 3 : 2);
      if (c.decisionLine !== false) expect(shown).toMatch(DECISION_LINE);
    }
  });

  it('a deleted request stays decided after the sidecar restarts: the same outputs, nothing posted again', async () => {
    world.script.after(1, (r) => world.remove(r));
    const wf = gateWorkflow({
      [key]: world.block(['alice', 'bob'].map((p) => world.people[p as Person].ref)),
    });
    const { phase } = await decisionStands(
      wf,
      plugin,
      () => fixture.restart(),
      () => undefined,
    );
    expect(phase).toBe('Failed');
    // The request, then the record that took its place; nothing after the restart.
    expect(world.posted()).toBe(2);
  });

  it.each(CHANGED_AFTER_DECISION)(
    'a decision stands after the sidecar restarts: %s',
    async (_name, first) => {
      let request = '';
      world.script.after(1, (r) => {
        request = r;
        if (first === 'approved') world.approve(r, 'alice');
        if (first === 'rejected')
          if (SUPPORT.inWords) world.answer!(r, 'bob', 'reject', 'not on Friday');
          else world.reject(r, 'bob');
      });
      const wf = gateWorkflow({
        [key]: world.block(['alice', 'bob'].map((p) => world.people[p as Person].ref)),
        ...(first === 'timeout' && { timeout: '1s' }),
      });
      const { phase, comment } = await decisionStands(
        wf,
        plugin,
        () => fixture.restart(),
        () => {
          if (first === 'approved') {
            world.withdraw(request, 'alice');
            world.reject(request, 'bob');
          } else {
            if (first === 'rejected') world.withdraw(request, 'bob');
            world.approve(request, 'alice');
          }
        },
      );
      expect(phase).toBe(first === 'approved' ? 'Succeeded' : 'Failed');
      expect(comment).toBe(first === 'rejected' && SUPPORT.inWords ? 'not on Friday' : '');
      expect(world.posted()).toBe(1);
    },
  );
});
