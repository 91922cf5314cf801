import { marshalExecuteTemplateArgs, PluginRpcClient, type AgentPlugin } from '@app/argo-agent';
import { runWorkflow, type WorkflowShape } from '@app/testing';
import type { ApproverStep } from '../stand-ins/slack/slack-api.stand-in.js';
import { withApprovalScopes } from '../demo/upstreams.js';
import { startApprovalWorld, type ApprovalWorld, type Person } from './approval-worlds.js';
import { startNotifier, startSlackFixture, type PluginFixture, type SlackFixture } from './support.js';

const ALICE = 'U0ALICE001';
const BOB = 'U0BOB00001';
const OUTPUTS = ['decision', 'approvers', 'decidedAt', 'url'];

/** A workflow with one approval gate (or, `underNotify`, the gate's body written as a block of `notify`). */
function gateWorkflow(approve: Record<string, unknown>, underNotify = false): WorkflowShape {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'approval-' },
    spec: {
      entrypoint: 'main',
      templates: [
        { name: 'main', steps: [[{ name: 'gate', template: 'gate' }]] },
        {
          name: 'gate',
          outputs: { parameters: OUTPUTS.map((name) => ({ name, valueFrom: { supplied: {} } })) },
          plugin: underNotify ? { notify: { approve } } : { approve },
        },
      ],
    },
  };
}

interface Case {
  name: string;
  /** Fields of the approve body besides the Slack block; the block's approvers default to [alice, bob]. */
  body?: Record<string, unknown>;
  approvers?: string[];
  script: (f: SlackFixture) => ApproverStep[];
  /** Done to the stand-in or the sidecar before the run (rate limits), or during it (a restart). */
  setup?: (f: SlackFixture, plugin: AgentPlugin) => RunHooks;
  phase: 'Succeeded' | 'Failed';
  decision: string;
  approvers_: string;
  /** The request as concluded; undefined: it is gone. */
  concluded?: RegExp;
  message: RegExp;
}

interface RunHooks {
  onEvent?: Parameters<typeof runWorkflow>[1]['onEvent'];
  done?: () => Promise<void>;
}

const react = (afterPolls: number, user: string, name = 'white_check_mark'): ApproverStep => ({
  afterPolls,
  user,
  react: name,
});

/** The outcome of a case that alice approves. */
const approvedByAlice = {
  phase: 'Succeeded',
  decision: 'approved',
  approvers_: ALICE,
  concluded: /Approved by <@U0ALICE001> at/,
  message: /^approved by U0ALICE001 /,
} as const;

const cases: Case[] = [
  {
    name: 'approve: a listed person reacts ✅',
    script: () => [react(2, ALICE)],
    phase: 'Succeeded',
    decision: 'approved',
    approvers_: ALICE,
    concluded: /\n\n:white_check_mark: Approved by <@U0ALICE001> at \d{4}-/,
    message: /^approved by U0ALICE001 at .*: https:\/\/argo-demo\.slack\.com\/archives\//,
  },
  {
    name: 'approve: a listed person replies "approve" in the thread',
    script: () => [{ afterPolls: 2, user: BOB, reply: 'Approve, tests are green' }],
    phase: 'Succeeded',
    decision: 'approved',
    approvers_: BOB,
    concluded: /Approved by <@U0BOB00001>/,
    message: /^approved by U0BOB00001 /,
  },
  {
    name: 'reject: one listed person reacts ❌ after another approved (minApprovals 2)',
    body: { minApprovals: 2 },
    script: () => [react(1, ALICE), react(2, BOB, 'x')],
    phase: 'Failed',
    decision: 'rejected',
    approvers_: BOB,
    concluded: /:x: Rejected by <@U0BOB00001>/,
    message: /^rejected by U0BOB00001 /,
  },
  {
    name: 'timeout: nobody answers (onTimeout: fail)',
    body: { timeout: '2s' },
    script: () => [],
    phase: 'Failed',
    decision: 'timeout',
    approvers_: '',
    concluded: /:hourglass: No decision within 2s; the gate failed/,
    message: /^no decision within 2s; the gate failed: https:/,
  },
  {
    name: 'timeout with onTimeout: approve',
    body: { timeout: '2s', onTimeout: 'approve' },
    script: () => [],
    phase: 'Succeeded',
    decision: 'approved',
    approvers_: '',
    concluded: /approved by onTimeout/,
    message: /^no decision within 2s; approved by onTimeout: /,
  },
  {
    name: 'minApprovals 2: one person reacting twice (and replying) is one approval; a second person decides',
    body: { minApprovals: 2 },
    script: () => [
      react(1, ALICE),
      react(1, ALICE, '+1::skin-tone-3'),
      { afterPolls: 2, user: ALICE, reply: 'approve' },
      react(4, BOB, 'heavy_check_mark'),
    ],
    phase: 'Succeeded',
    decision: 'approved',
    approvers_: `${ALICE},${BOB}`,
    concluded: /Approved by <@U0ALICE001>, <@U0BOB00001>/,
    message: /^approved by U0ALICE001, U0BOB00001 /,
  },
  {
    name: "a non-approver's reaction is ignored",
    approvers: [ALICE],
    script: () => [react(1, BOB), react(3, ALICE)],
    ...approvedByAlice,
  },
  {
    name: "a bot's reaction and reply (even a listed bot user) and the request's own author are ignored",
    approvers: [ALICE, 'U0DEPLOYBOT'],
    script: (f) => [
      react(1, 'U0DEPLOYBOT'),
      react(1, f.ws.bot.userId),
      { afterPolls: 1, user: ALICE, reply: 'approve', bot: true },
      react(3, ALICE),
    ],
    ...approvedByAlice,
  },
  {
    name: 'a withdrawn reaction withdraws the approval',
    body: { minApprovals: 2, timeout: '3s' },
    script: () => [
      react(1, ALICE),
      { afterPolls: 2, user: ALICE, unreact: 'white_check_mark' },
      react(3, BOB),
    ],
    phase: 'Failed',
    decision: 'timeout',
    approvers_: '',
    concluded: /No decision within 3s/,
    message: /^no decision within 3s; the gate failed/,
  },
  {
    name: 'a deleted request fails the gate safely',
    script: () => [react(1, ALICE, 'eyes'), { afterPolls: 2, delete: true }],
    phase: 'Failed',
    decision: 'deleted',
    approvers_: '',
    message: /^the approval request was deleted before a decision; failing safely: https:/,
  },
  {
    name: 'a request edited by someone else fails the gate safely (never approves)',
    script: () => [{ afterPolls: 2, user: ALICE, edit: 'Deploy approved already, go' }, react(2, ALICE)],
    phase: 'Failed',
    decision: 'tampered',
    approvers_: '',
    concluded: /Changed by someone else; the gate failed safely/,
    message: /^the approval request was changed by someone else \(edited by U0ALICE001\)/,
  },
  {
    name: 'a user-group approver (@release-managers) counts through its members',
    approvers: ['@release-managers'],
    script: () => [react(1, BOB), react(3, ALICE)],
    ...approvedByAlice,
  },
  {
    name: '429 during polling: the gate waits out Retry-After (all gates of the workspace pause), then decides',
    script: () => [react(2, ALICE)],
    setup: (f) => {
      // The pause holds in real time (the sidecar's limiter), not in the agent's scaled time: a short Retry-After.
      f.ws.slack.rateLimit('reactions.get', 3);
      const requeues: number[] = [];
      return {
        onEvent: (e) => e.kind === 'requeue' && requeues.push(e.requeueMs!),
        // Retry-After is 3 s from the 429; the requeue is what is left of it when the call answers.
        done: async () => expect(Math.max(...requeues)).toBeGreaterThan(2_000),
      };
    },
    ...approvedByAlice,
  },
  {
    name: 'the sidecar restarts between the post and the decision: the request is found again, not reposted',
    script: () => [react(2, ALICE)],
    setup: (f, plugin) => restartAfterPost(f, plugin, 0),
    ...approvedByAlice,
  },
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
    approvers_: '',
    concluded: /:hourglass: No decision within 3s; the gate failed/,
    message: /^no decision within 3s; the gate failed: https:/,
  },
];

/** A Slack `ts` (seconds.microseconds) in ms since the epoch. */
const slackMillis = (ts: string) => Math.round(Number(ts) * 1000);

/**
 * Restarts the sidecar `delayMs` after the gate's first requeue (the request is posted by then); `done` waits
 * for the new sidecar and checks that it found the request instead of posting again.
 */
function restartAfterPost(f: SlackFixture, plugin: AgentPlugin, delayMs: number) {
  let restarted: Promise<void> | undefined;
  return {
    onEvent: (event: { kind: string }) => {
      if (event.kind !== 'requeue' || restarted) return;
      restarted = new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => {
        plugin.url = 'http://127.0.0.1:9'; // the old container is gone until the new one listens
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
    f.ws.team.addUser('deploy-bot', 'U0DEPLOYBOT', { bot: true });
    plugin = { name: 'chat-notifier', url: f.h.url, token: f.h.token };
  });
  afterEach(() => f.close());

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    f.ws.slack.approverScript = c.script(f);
    const hooks = c.setup?.(f, plugin) ?? {};
    const result = await runWorkflow(
      gateWorkflow({
        slack: { channel: '#builds', text: 'Deploy 1.4.2 to prod?', approvers: c.approvers ?? [ALICE, BOB] },
        ...c.body,
      }),
      { plugins: [plugin], timeScale: 0.01, rpc: { backoffMs: 50 }, onEvent: hooks.onEvent },
    );
    await hooks.done?.();
    const gate = result.node('gate')!;
    const out = Object.fromEntries((gate.outputs?.parameters ?? []).map((p) => [p.name, p.value]));
    const posts = f.ws.slack.okCalls('chat.postMessage');
    expect({
      phase: gate.phase,
      decision: out.decision,
      approvers: out.approvers,
      posts: posts.length,
    }).toEqual({
      phase: c.phase,
      decision: c.decision,
      approvers: c.approvers_,
      posts: 1,
    });
    expect(gate.message).toMatch(c.message);
    expect(out.url).toMatch(/^https:\/\/argo-demo\.slack\.com\/archives\/C\w+\/p\d+$/);
    expect(new Date(out.decidedAt!).getTime()).toBeGreaterThan(result.startedAt - 1000);
    const request = f.ws.slack.posts(f.ws.builds)[0] ?? { text: '', subtype: 'gone' };
    expect(String(posts[0]!.args.text)).toMatch(
      /^Deploy 1\.4\.2 to prod\?\n\nNeeds (one approval|2 approvals) from /,
    );
    if (c.concluded) expect(request.text).toMatch(c.concluded);
    else expect(request.subtype).toBe('gone');
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

/** What people do once the request has been read `after` times. */
interface WorldStep {
  after: number;
  act: 'approve' | 'reject' | 'withdraw' | 'delete';
  who?: Person;
}

interface WorldCase {
  name: string;
  body?: Record<string, unknown>;
  approvers?: Person[];
  steps: WorldStep[];
  restart?: boolean;
  phase: 'Succeeded' | 'Failed';
  decision: string;
  decidedBy?: Person;
  message: RegExp;
}

/** The outcome of a case that alice approves. */
const aliceApproves = {
  phase: 'Succeeded',
  decision: 'approved',
  decidedBy: 'alice',
  message: /^approved by \S+ at /,
} as const;

const worldCases: WorldCase[] = [
  {
    name: 'approve',
    steps: [{ after: 2, act: 'approve', who: 'alice' }],
    ...aliceApproves,
  },
  {
    name: 'reject',
    steps: [{ after: 2, act: 'reject', who: 'bob' }],
    phase: 'Failed',
    decision: 'rejected',
    decidedBy: 'bob',
    message: /^rejected by \S+ at /,
  },
  {
    name: "a non-approver's answer is ignored",
    approvers: ['alice'],
    steps: [
      { after: 1, act: 'approve', who: 'bob' },
      { after: 3, act: 'approve', who: 'alice' },
    ],
    ...aliceApproves,
  },
  {
    name: 'a withdrawn answer no longer counts (minApprovals 2)',
    body: { minApprovals: 2, timeout: '3s' },
    steps: [
      { after: 1, act: 'approve', who: 'alice' },
      { after: 2, act: 'withdraw', who: 'alice' },
      { after: 3, act: 'approve', who: 'bob' },
    ],
    phase: 'Failed',
    decision: 'timeout',
    message: /^no decision within 3s; the gate failed/,
  },
  {
    name: 'a deleted request fails the gate safely',
    steps: [{ after: 2, act: 'delete' }],
    phase: 'Failed',
    decision: 'deleted',
    message: /^the approval request was deleted before a decision; failing safely: /,
  },
  {
    name: 'the sidecar restarts between the post and the decision: the request is found again, not reposted',
    steps: [{ after: 2, act: 'approve', who: 'alice' }],
    restart: true,
    ...aliceApproves,
  },
];

describe.each(['mattermost', 'discord', 'github'] as const)(
  'approval gates through the local agent (%s)',
  (key) => {
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

    it.each(worldCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      for (const step of c.steps)
        world.script.after(step.after, (request) =>
          step.act === 'delete' ? world.remove(request) : world[step.act](request, step.who!),
        );
      let restarted: Promise<void> | undefined;
      const result = await runWorkflow(
        gateWorkflow({
          [key]: world.block((c.approvers ?? ['alice', 'bob']).map((p) => world.people[p].ref)),
          ...c.body,
        }),
        {
          plugins: [plugin],
          timeScale: 0.01,
          rpc: { backoffMs: 50 },
          onEvent: (event) => {
            if (!c.restart || event.kind !== 'requeue' || restarted) return;
            plugin.url = 'http://127.0.0.1:9'; // the old container is gone until the new one listens
            restarted = fixture.restart().then((h) => {
              plugin.url = h.url;
            });
          },
        },
      );
      await restarted;
      const gate = result.node('gate')!;
      const out = Object.fromEntries((gate.outputs?.parameters ?? []).map((p) => [p.name, p.value]));
      expect({
        phase: gate.phase,
        decision: out.decision,
        approvers: out.approvers,
        posted: world.posted(),
        restarted: restarted !== undefined,
      }).toEqual({
        phase: c.phase,
        decision: c.decision,
        approvers: c.decidedBy ? world.people[c.decidedBy].id : '',
        posted: 1,
        restarted: c.restart === true,
      });
      expect(gate.message).toMatch(c.message);
      expect(out.url).toMatch(world.url);
      expect(new Date(out.decidedAt!).getTime()).toBeGreaterThan(result.startedAt - 1000);
      // After a restart the new sidecar looked for its request (and found it: one post).
      if (c.restart) expect(world.searches()).toBeGreaterThanOrEqual(2);
    });
  },
);
