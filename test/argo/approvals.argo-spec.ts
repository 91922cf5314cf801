// The approval table (apps/chat-notifier/test/approval-table.ts: Slack's rows, and those of Mattermost, Discord,
// GitHub, Jira and ServiceNow) under the real Argo: every row of both tables at once, each in a place of its own
// (a channel of one Slack stand-in workspace; a channel, repository or project of one stand-in per provider), on
// the stack with Argo's agent pod per workflow (the chat notifier's sidecar installed from
// manifests/chat-notifier) and on the stack with the shared agent (the notifier in process). Each row: the
// node's phase, message and outputs, the request concluded in place, exactly one request posted, and every
// scripted answer given. The 429 row's polls of its request are answered 429 once; the restart rows' plugin is
// killed with SIGKILL once their requests are posted: with agent pods each row's sidecar (the pod runner
// restarts it, as the pod's restartPolicy says), with the shared agent every replica, once for all the restart
// rows (they come back as their Deployment would bring them back).
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
import {
  expectedOf,
  observedOf,
  providerWorkflow,
  startProviderWorlds,
  type ProviderRow,
  type ProviderWorlds,
} from './support/approval-providers.js';
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
const ALL_ROWS = slackApprovalRows({ withdrawTimeout: '75s' });

/** The agent pods of the restart rows, watched from the restart on. */
const watches = new Map<string, AgentPodWatch>();

interface Agent {
  pass: 'agent pods' | 'shared agent';
  state: () => StackState;
  install(state: StackState, env: Record<string, string>): Promise<void>;
  /** Kills the plugin of the rows' workflows (their requests posted); answers once it is back. */
  restart(state: StackState, workflows: string[], env: Record<string, string>): Promise<void>;
  /**
   * One plugin serves every workflow (the shared agent): it is killed once for all the restart rows, every row
   * in flight. With agent pods each restart row's sidecar is killed on its own, and those rows go first: a
   * sidecar restarted while some 60 agent pods started took longer (26 s) than Argo's agent retries a call
   * (16 s), which failed its node.
   */
  onePluginForAll: boolean;
  /** Whether the plugin, once restarted, found the row's request instead of posting it again. */
  foundAgain(state: StackState, workflow: string): boolean;
}

/** The gate's log line (every provider's) when it finds its request again instead of posting it. */
const FOUND_AGAIN = 'approval request found again';

const agents: Agent[] = [
  {
    pass: 'agent pods',
    state: stack,
    install: (state, env) => installPlugin(state, NAMESPACE, APP, env),
    onePluginForAll: false,
    restart: async (state, workflows) => {
      const sidecar = pluginManifest(APP).spec.sidecar.container.name;
      for (const workflow of workflows) {
        const pod = watchAgentPod(state, NAMESPACE, workflow);
        watches.set(workflow, pod);
        const pid = await until('the sidecar runs', 60, () => pod.container(sidecar).pid);
        process.kill(pid, 'SIGKILL');
        await until('the sidecar started again', 60, () =>
          pod.container(sidecar).starts >= 2 ? true : undefined,
        );
      }
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
    onePluginForAll: true,
    restart: async (state, _workflows, env) => {
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
  const ROWS = ALL_ROWS.filter((row) => row.only === undefined || row.only === agent.pass);
  let ws: SlackDemoWorkspace;
  let providers: ProviderWorlds;
  let env: Record<string, string>;
  const channels: Channel[] = [];
  /** Every row's workflow, submitted at once; what each ended as. */
  let run: Promise<{ slack: WorkflowOutcome[]; providers: WorkflowOutcome[] }>;

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
    providers = await startProviderWorlds();
    env = { ...ws.env, ...ENV, ...providers.env };
    await prepareNamespace(state, NAMESPACE);
    await agent.install(state, env);
    run = submitAll();
    run.catch(() => undefined); // awaited by the tests below
  });
  afterAll(async () => {
    await ws?.close();
    await providers?.close();
  });

  async function submitAll() {
    const slackRequests = ROWS.map((row, i) => ({
      restart: row.event === 'restart',
      posted: () => ws.slack.posts(channels[i]!).length > 0,
      doc: gateWorkflow(
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
    }));
    const providerRequests = providers.rows.map((p) => ({
      restart: p.row.restart === true,
      posted: () => p.world.posted(p.place) > 0,
      doc: providerWorkflow(p),
    }));
    const all = [...slackRequests, ...providerRequests];
    const names = new Map<(typeof all)[number], string>();
    const submit = (requests: typeof all) =>
      Promise.all(requests.map(async (r) => names.set(r, await create(state, NAMESPACE, r.doc))));
    const restarting = all.filter((r) => r.restart);
    await submit(agent.onePluginForAll ? all : restarting);
    const groups = agent.onePluginForAll ? [restarting] : restarting.map((r) => [r]);
    await Promise.all(
      groups.map(async (group) => {
        await until('the restart rows posted their requests', 120, () =>
          group.every((r) => r.posted()) ? true : undefined,
        );
        await agent.restart(
          state,
          group.map((r) => names.get(r)!),
          env,
        );
      }),
    );
    if (!agent.onePluginForAll) await submit(all.filter((r) => !r.restart));
    const outcomes = await Promise.all(
      all.map((r) => waitForWorkflow(state, NAMESPACE, names.get(r)!, 6 * 60_000)),
    );
    return { slack: outcomes.slice(0, ROWS.length), providers: outcomes.slice(ROWS.length) };
  }

  it('every row of the Slack table, all at once: phase, message, outputs, one request, every answer given', async () => {
    const outcomes = (await run).slack;
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

  it("every provider's rows, at the same time as Slack's: phase, message, outputs, one request, every answer given", async () => {
    const outcomes = (await run).providers;
    const title = (p: ProviderRow) => `${p.provider}: ${p.row.name}`;
    const actual = providers.rows.map((p, i) =>
      observedOf(p, gateNode(outcomes[i]!), () => agent.foundAgain(state, outcomes[i]!.name)),
    );
    providers.rows.forEach((p, i) =>
      reportWorkflow({
        what: `approvals: ${title(p)}`,
        pass: agent.pass,
        phase: outcomes[i]!.phase,
        expected: p.row.phase,
        seconds: workflowSeconds(outcomes[i]!),
        message: gateNode(outcomes[i]!)?.message,
      }),
    );
    reportText(
      providers.rows.flatMap((p, i) =>
        JSON.stringify(actual[i]) === JSON.stringify(expectedOf(p))
          ? []
          : [`approvals [${agent.pass}] ${title(p)}: ${JSON.stringify(actual[i])}`],
      ),
    );
    expect(Object.fromEntries(providers.rows.map((p, i) => [title(p), actual[i]]))).toEqual(
      Object.fromEntries(providers.rows.map((p) => [title(p), expectedOf(p)])),
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
