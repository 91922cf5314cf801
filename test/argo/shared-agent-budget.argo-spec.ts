// The shared agent against one tenant's runaway successCondition, under the real Argo stack: three HTTP steps
// whose condition would run for minutes (`let r = 1..700; all(r, all(r, all(r, true)))`, 343 million
// iterations) fail at the agent's step budget, each evaluated once by one replica; another namespace's plain
// HTTP step meanwhile succeeds.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { reportText } from './support/report.js';
import { create, prepareNamespace, waitForWorkflow } from './support/cluster.js';
import { sharedStack } from './support/shared-stack.js';

const HEAVY = 'ep-budget-a';
const PLAIN = 'ep-budget-b';
const NESTED = 'let r = 1..700; all(r, all(r, all(r, true)))';

describe('the shared agent: a successCondition past its step budget', () => {
  const state = sharedStack();
  let server: Server;
  let url = '';

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200).end('pong'));
    await new Promise<void>((r) => server.listen(0, state.hostAddr, r));
    url = `http://${state.hostAddr}:${(server.address() as AddressInfo).port}/`;
    for (const ns of [HEAVY, PLAIN]) await prepareNamespace(state, ns);
  });
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });

  const workflow = (name: string, http: Record<string, unknown>) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: `${name}-` },
    spec: { entrypoint: 'main', templates: [{ name: 'main', http }] },
  });

  it('fails each runaway step once with the budget message; the other namespace is served', async () => {
    const started = Date.now();
    const heavy = await Promise.all(
      [0, 1, 2].map(() => create(state, HEAVY, workflow('budget', { url, successCondition: NESTED }))),
    );
    const plain = await create(state, PLAIN, workflow('plain', { url }));
    const outcomes = await Promise.all(heavy.map((n) => waitForWorkflow(state, HEAVY, n, 10 * 60_000)));
    const other = await waitForWorkflow(state, PLAIN, plain, 10 * 60_000);
    const tookS = (Date.now() - started) / 1000;

    const nodes = outcomes.map((o) => Object.values(o.nodes).find((n) => n.type === 'HTTP'));
    // Per node of ours, the replicas that executed it, from their task lines.
    const ours = new Set(heavy);
    const executions = new Map<string, number>();
    for (const proc of state.processes.filter((p) => p.name.startsWith('shared-agent')))
      for (const line of readFileSync(proc.log, 'utf8').split('\n')) {
        if (!line.includes('"task done"') || !line.includes(`"namespace":"${HEAVY}"`)) continue;
        const entry = JSON.parse(line) as { node: string; workflow: string };
        if (ours.has(entry.workflow)) executions.set(entry.node, (executions.get(entry.node) ?? 0) + 1);
      }
    reportText([
      `shared-agent-budget: ${heavy.length} runaway conditions ${JSON.stringify(nodes.map((n) => n?.phase))}, executed ${JSON.stringify([...executions.values()])} times; the other namespace's step ${other.phase}; all ended in ${tookS.toFixed(1)} s`,
    ]);
    for (const node of nodes) {
      expect(node?.phase).toBe('Failed');
      expect(node?.message).toMatch(
        /^unable to evaluate expression '.*': (step|time) budget exceeded: the agent evaluates a successCondition in at most 100000 steps and 100 ms$/,
      );
    }
    expect([...executions.values()]).toEqual(heavy.map(() => 1));
    expect(other.phase).toBe('Succeeded');
  });
});
