// The Slack approval gate's table (apps/chat-notifier/test/approval-table.ts) under the real Argo: every row at
// once, each in a channel of its own of one Slack stand-in workspace, on the stack with Argo's agent pod per
// workflow (the chat notifier's sidecar installed from manifests/chat-notifier) and on the stack with the shared
// agent (the notifier in process). Each row: the node's phase, message and outputs, the request concluded in
// place, exactly one request posted, and every scripted answer given. The 429 row's polls of its request are
// answered 429 once; the restart row's plugin is killed with SIGKILL once its request is posted: with agent
// pods its sidecar (the pod runner restarts it, as the pod's restartPolicy says), with the shared agent every
// replica (they come back as their Deployment would bring them back).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setStandInHost } from '@app/local-agent';
import {
  ALICE,
  BOB,
  decidersOf,
  DEPLOY_BOT,
  gateWorkflow,
  REQUEST_TEXT,
  REQUEST_URL,
  slackApprovalRows,
  type ApprovalRow,
} from '../../apps/chat-notifier/test/approval-table.js';
import {
  startSlackDemoWorkspace,
  withApprovalScopes,
  type SlackDemoWorkspace,
} from '../../apps/chat-notifier/demo/upstreams.js';
import type { Channel } from '../../apps/chat-notifier/stand-ins/slack/slack-state.js';
import { sharedAgentProcesses } from '../../tools/argo-stack/src/shared-agents.js';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import {
  create,
  prepareNamespace,
  stack,
  until,
  waitForWorkflow,
  type ManifestDoc,
  type WorkflowOutcome,
} from './support/cluster.js';
import { watchAgentPod, type AgentPodWatch } from './support/agent-pods.js';
import { installPlugin, pluginManifest } from './support/plugins.js';
import { reportText, reportWorkflow } from './support/report.js';
import { workflowSeconds } from './support/runs.js';
import { configureSharedAgent, sharedStack } from './support/shared-stack.js';

const NAMESPACE = 'ep-approvals';
const APP = 'chat-notifier';
/**
 * The gates' Slack budget: 14 gates of one shared agent at Tier 3's 0.8 × 50 calls a minute would come round
 * every minute (requeue = 60 s × N × C / B); at 600 every 10 s, the least a gate waits between polls.
 */
const ENV = { SLACK_APPROVAL_CALLS_PER_MINUTE: '600' };
/** Three polls 10 s apart and the agents' own delays fit in it (a restart of the shared agent included). */
const ROWS = slackApprovalRows({ withdrawTimeout: '75s' });

/** The agent pods of the restart rows, watched from the restart on. */
const watches = new Map<string, AgentPodWatch>();

interface Agent {
  pass: 'agent pods' | 'shared agent';
  state: () => StackState;
  install(state: StackState, env: Record<string, string>): Promise<void>;
  /** Kills the plugin of the row's workflow, once its request is posted; answers once it is back. */
  restart(state: StackState, workflow: string, env: Record<string, string>): Promise<void>;
  /** Whether the plugin, once restarted, found the row's request instead of posting it again. */
  foundAgain(state: StackState, workflow: string): boolean;
}

const FOUND_AGAIN = 'this gate already posted its request';

const agents: Agent[] = [
  {
    pass: 'agent pods',
    state: stack,
    install: (state, env) => installPlugin(state, NAMESPACE, APP, env),
    restart: async (state, workflow) => {
      const sidecar = pluginManifest(APP).spec.sidecar.container.name;
      const pod = watchAgentPod(state, NAMESPACE, workflow);
      watches.set(workflow, pod);
      const pid = await until('the sidecar runs', 60, () => pod.container(sidecar).pid);
      process.kill(pid, 'SIGKILL');
      await until('the sidecar started again', 60, () =>
        pod.container(sidecar).starts >= 2 ? true : undefined,
      );
    },
    foundAgain: (_state, workflow) => {
      const pod = watches.get(workflow)!;
      pod.stop();
      return pod.container(pluginManifest(APP).spec.sidecar.container.name).log.includes(FOUND_AGAIN);
    },
  },
  {
    pass: 'shared agent',
    state: sharedStack,
    install: (state, env) => configureSharedAgent(state, { ...env, PLUGINS: 'notify' }),
    restart: async (state, _workflow, env) => {
      for (const replica of sharedAgentProcesses(sharedStack())) process.kill(replica.pid, 'SIGKILL');
      await configureSharedAgent(state, { ...env, PLUGINS: 'notify' });
    },
    foundAgain: (_state, workflow) =>
      sharedAgentProcesses(sharedStack()).some((replica) =>
        readFileSync(replica.log, 'utf8')
          .split('\n')
          .some((line) => line.includes(FOUND_AGAIN) && line.includes(workflow)),
      ),
  },
];

/** What a row must show, as one object, so that a difference names the row and the field. */
function expected(row: ApprovalRow): Record<string, unknown> {
  return {
    phase: row.phase,
    decision: row.decision,
    approvers: row.decidedBy,
    comment: row.comment ?? '',
    deciders: row.decidedBy,
    ...(row.decision0 ? { decision0: true } : {}),
    message: true,
    url: row.posts !== 0,
    decidedAt: true,
    posted: row.posts ?? 1,
    requestText: row.posts !== 0,
    concluded: row.concluded ? true : 'gone',
    answersGiven: true,
    ...(row.event === 'rate-limited' ? { answered429: true } : {}),
    ...(row.event === 'restart' ? { foundAgain: true } : {}),
  };
}

describe.each(agents)('approval gates under the real Argo ($pass)', (agent) => {
  const state = agent.state();
  let ws: SlackDemoWorkspace;
  let env: Record<string, string>;
  const channels: Channel[] = [];

  beforeAll(async () => {
    setStandInHost(state.hostAddr);
    ws = withApprovalScopes(await startSlackDemoWorkspace());
    ws.team.addUser('deploy-bot', DEPLOY_BOT, { bot: true });
    const people = [ws.bot.userId, ALICE, BOB];
    ROWS.forEach((row, i) => {
      const channel = ws.team.addChannel(`approvals-${i}`, { members: people });
      ws.slack.channelScripts.set(channel.id, row.script(ws.bot.userId));
      if (row.event === 'rate-limited') ws.slack.rateLimit('reactions.get', 3, 1, channel);
      channels.push(channel);
    });
    env = { ...ws.env, ...ENV };
    await prepareNamespace(state, NAMESPACE);
    await agent.install(state, env);
  });
  afterAll(() => ws?.close());

  it('every row of the table, all at once: phase, message, outputs, one request, every answer given', async () => {
    const names = await Promise.all(
      ROWS.map((row, i) =>
        create(
          state,
          NAMESPACE,
          gateWorkflow(
            {
              slack: {
                channel: `#approvals-${i}`,
                text: 'Deploy 1.4.2 to prod?',
                approvers: row.approvers ?? [ALICE, BOB],
              },
              ...row.body,
            },
            false,
            row.labels,
          ) as ManifestDoc,
        ),
      ),
    );
    const restarting = ROWS.flatMap((row, i) => (row.event === 'restart' ? [i] : [])).map(async (i) => {
      await until('the restart row posted its request', 120, () =>
        ws.slack.posts(channels[i]!).length > 0 ? true : undefined,
      );
      await agent.restart(state, names[i]!, env);
    });
    await Promise.all(restarting);
    const outcomes = await Promise.all(names.map((n) => waitForWorkflow(state, NAMESPACE, n, 6 * 60_000)));

    const actual = ROWS.map((row, i) => observed(row, channels[i]!, outcomes[i]!));
    ROWS.forEach((row, i) =>
      reportWorkflow({
        what: `approvals: ${row.name}`,
        pass: agent.pass,
        phase: outcomes[i]!.phase,
        expected: row.phase,
        seconds: workflowSeconds(outcomes[i]!),
        message: gateNode(outcomes[i]!)?.message,
      }),
    );
    const differing = ROWS.filter((row, i) => JSON.stringify(actual[i]) !== JSON.stringify(expected(row)));
    reportText(
      differing.map(
        (row) => `approvals [${agent.pass}] ${row.name}: ${JSON.stringify(actual[ROWS.indexOf(row)])}`,
      ),
    );
    expect(Object.fromEntries(ROWS.map((row, i) => [row.name, actual[i]]))).toEqual(
      Object.fromEntries(ROWS.map((row) => [row.name, expected(row)])),
    );
  });

  /** What the row showed, in the shape of `expected`. */
  function observed(row: ApprovalRow, channel: Channel, outcome: WorkflowOutcome): Record<string, unknown> {
    const gate = gateNode(outcome);
    const out = Object.fromEntries(
      (
        (gate?.outputs as { parameters?: Array<{ name: string; value?: string }> } | undefined)?.parameters ??
        []
      ).map((p) => [p.name, p.value]),
    );
    const posts = ws.slack
      .okCalls('chat.postMessage')
      .filter((c) => c.args.channel === channel.id || c.args.channel === `#${channel.name}`);
    const request = ws.slack.posts(channel)[0];
    const lastPoll = Math.max(0, ...row.script(ws.bot.userId).map((s) => s.afterPolls));
    return {
      phase: gate?.phase,
      decision: out.decision,
      approvers: out.approvers,
      comment: out.comment,
      deciders: decidersOf(out.decisions),
      ...(row.decision0 ? { decision0: row.decision0.test(out.decisions?.split('\n')[0] ?? '') } : {}),
      message: row.message.test(gate?.message ?? ''),
      url: REQUEST_URL.test(out.url ?? ''),
      decidedAt: Number.isFinite(Date.parse(out.decidedAt ?? '')),
      posted: posts.length,
      requestText: REQUEST_TEXT.test(String(posts[0]?.args.text ?? '')),
      concluded: request ? (row.concluded?.test(request.text) ?? false) : 'gone',
      answersGiven: ws.slack.pollsIn(channel) >= lastPoll,
      ...(row.event === 'rate-limited'
        ? {
            answered429: ws.slack.server.calls.some(
              (c) =>
                c.fault === 'rate-limit' &&
                c.path === '/api/reactions.get' &&
                (c.body as { channel?: string } | undefined)?.channel === channel.id,
            ),
          }
        : {}),
      ...(row.event === 'restart' ? { foundAgain: agent.foundAgain(state, outcome.name) } : {}),
    };
  }
});

function gateNode(outcome: WorkflowOutcome): WorkflowOutcome['nodes'][string] | undefined {
  return Object.values(outcome.nodes).find((n) => n.displayName === 'gate');
}
