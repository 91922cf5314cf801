// Two replicas of the shared agent, 300 workflows in flight, one replica killed with SIGKILL mid-run: every
// workflow ends, no node stays Pending, and no Slack message is posted twice (the notifier promises one
// message per step, across restarts, through its marker in the channel's history). Prints the lease handover
// time: from the kill to the survivor holding every shard.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setStandInHost } from '@app/local-agent';
import { startSlackDemoWorkspace, type SlackDemoWorkspace } from '../../apps/chat-notifier/demo/upstreams.js';
import { sharedAgentProcesses } from '../../tools/argo-stack/src/shared-agents.js';
import { reportText } from './support/report.js';
import { kubeClient, prepareNamespace, waitForWorkflow } from './support/cluster.js';
import { configureSharedAgent, shardLeases, sharedStack } from './support/shared-stack.js';

const NAMESPACE = 'ep-kill';
const WORKFLOWS = 300;

describe('the shared agent: 300 workflows, one replica killed with SIGKILL', () => {
  const state = sharedStack();
  let slack: SlackDemoWorkspace;

  beforeAll(async () => {
    setStandInHost(state.hostAddr);
    slack = await startSlackDemoWorkspace();
    await prepareNamespace(state, NAMESPACE);
    await configureSharedAgent(state, { ...slack.env, PLUGINS: 'notify' });
  });
  afterAll(async () => {
    await slack?.close();
    // The killed replica comes back, as its Deployment would bring it back.
    await configureSharedAgent(state, { ...slack.env, PLUGINS: 'notify' });
  });

  it('every workflow ends Succeeded, each message posted once, the shards handed over', async () => {
    const client = kubeClient(state);
    const create = (i: number) =>
      client.call<{ metadata: { name: string } }>(
        'POST',
        `/apis/argoproj.io/v1alpha1/namespaces/${NAMESPACE}/workflows`,
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Workflow',
          metadata: { generateName: 'kill-' },
          spec: {
            entrypoint: 'main',
            templates: [
              {
                name: 'main',
                plugin: {
                  slack: {
                    channel: i % 2 ? '#builds' : '#deploys',
                    text: `kill test ${i} {{workflow.name}}`,
                  },
                },
              },
            ],
          },
        },
      );
    const names: string[] = [];
    for (let i = 0; i < WORKFLOWS; i += 20)
      names.push(
        ...(
          await Promise.all(Array.from({ length: Math.min(20, WORKFLOWS - i) }, (_, k) => create(i + k)))
        ).map((w) => w.metadata.name),
      );

    // Mid-run: once a third of the messages are out, the replica holding the most shards is killed.
    const posted = () => slack.builds.messages.length + slack.deploys.messages.length;
    while (posted() < WORKFLOWS / 3) await new Promise((r) => setTimeout(r, 200));
    const leases = () => shardLeases(state);
    const before = await leases();
    const victim = sharedAgentProcesses(state)
      .map((p) => ({ p, shards: before.filter((l) => l.spec?.holderIdentity === p.name).length }))
      .sort((a, b) => b.shards - a.shards)[0]!.p;
    process.kill(victim.pid, 'SIGKILL');
    const killed = Date.now();
    for (;;) {
      const now = await leases();
      if (now.length > 0 && now.every((l) => l.spec?.holderIdentity && l.spec.holderIdentity !== victim.name))
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const handoverMs = Date.now() - killed;
    reportText([
      `shared-agent-kill: lease handover after SIGKILL of ${victim.name}: ${(handoverMs / 1000).toFixed(1)} s (lease duration 15 s)`,
    ]);

    const outcomes = await Promise.all(names.map((n) => waitForWorkflow(state, NAMESPACE, n, 15 * 60_000)));
    const phases = outcomes.reduce<Record<string, number>>(
      (acc, o) => ({ ...acc, [o.phase]: (acc[o.phase] ?? 0) + 1 }),
      {},
    );
    // The tasks both replicas executed: those the killed one had not written yet, offered again.
    const ours = new Set(names);
    const executedBy = new Map<string, Set<string>>();
    for (const proc of state.processes.filter((p) => p.name.startsWith('shared-agent')))
      for (const line of readFileSync(proc.log, 'utf8').split('\n')) {
        if (!line.includes('"task done"') || !line.includes(`"namespace":"${NAMESPACE}"`)) continue;
        const entry = JSON.parse(line) as { node: string; workflow: string; identity: string };
        if (!ours.has(entry.workflow)) continue;
        executedBy.set(entry.node, (executedBy.get(entry.node) ?? new Set()).add(entry.identity));
      }
    const again = [...executedBy.values()].filter((who) => who.size > 1).length;
    reportText([
      `shared-agent-kill: ${WORKFLOWS} workflows: ${JSON.stringify(phases)}; ${again} tasks offered again by the new owner; messages posted: ${posted()}`,
    ]);
    expect(phases).toEqual({ Succeeded: WORKFLOWS });
    expect(outcomes.flatMap((o) => Object.values(o.nodes)).filter((n) => n.phase === 'Pending')).toEqual([]);
    // One message per workflow: none lost, none twice.
    const texts = [...slack.builds.messages, ...slack.deploys.messages].map((m) => m.text);
    expect(texts.length).toBe(WORKFLOWS);
    expect(new Set(texts).size).toBe(WORKFLOWS);
    expect(handoverMs).toBeLessThan(15_000 + 3_000 + 5_000);
  });
});
