// A successCondition that would run for minutes on the agent's only thread (the review's condition: 700
// elements, 343 million iterations) stops at the agent's step budget: its node fails once, and the replica,
// a process of its own, keeps answering /healthz and renewing its Lease meanwhile.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeApi } from './support/fake-api.js';
import { until } from './support/agent-harness.js';
import { ensureBuilt, ReplicaProcess } from './support/replica-process.js';

const NESTED = 'let r = 1..700; all(r, all(r, all(r, true)))';

describe('a successCondition past the step budget', () => {
  let api: FakeApi;
  let upstream: Server;
  let url: string;
  let dir: string;
  let replica: ReplicaProcess | undefined;

  beforeAll(async () => {
    ensureBuilt();
    api = await FakeApi.start();
    dir = mkdtempSync(join(tmpdir(), 'shared-agent-budget-'));
    writeFileSync(join(dir, 'kubeconfig'), api.kubeconfig());
    upstream = createServer((_req, res) => res.writeHead(200).end('pong'));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/ping`;
  });
  afterAll(async () => {
    replica?.kill();
    upstream.close();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const httpTask = (name: string, successCondition?: string) => ({
    name,
    inputs: {},
    outputs: {},
    metadata: {},
    http: { url, ...(successCondition && { successCondition }) },
  });
  const renewTime = () =>
    api.leaseList().find((l) => l.metadata.labels?.['executor-plugins.dev/lease'] === 'member')?.spec as
      { renewTime?: string } | undefined;

  it('fails the node once; the replica answers /healthz within 1 s and renews its Lease meanwhile', async () => {
    replica = new ReplicaProcess('replica-a', {
      KUBECONFIG: join(dir, 'kubeconfig'),
      PLUGINS: 'none',
      AGENT_SHARDS: '4',
      AGENT_LEASE_DURATION: '2s',
      ARGO_AGENT_PATCH_RATE: '200ms',
      AGENT_HTTP_BLOCKED_NETWORKS: '169.254.0.0/16', // the upstream is on loopback
    });
    await until('shards taken', () => replica!.logs().some((l) => l.msg === 'shards acquired'), 20_000);

    // Ten copies of the condition, in two namespaces, and one plain step of a third namespace.
    for (const ns of ['team-a', 'team-b'])
      api.createTaskSet(
        ns,
        'heavy',
        Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`heavy-${i}`, httpTask(`c${i}`, NESTED)])),
      );
    api.createTaskSet('team-c', 'plain', { 'plain-1': httpTask('plain') });

    const health: Array<number | string> = [];
    const renewals = new Set<string | undefined>();
    let slowest = 0;
    const done = () =>
      ['team-a', 'team-b'].every((ns) => Object.keys(api.nodes(ns, 'heavy')).length === 5) &&
      api.nodes('team-c', 'plain')['plain-1'] !== undefined;
    const started = Date.now();
    while (!done() || Date.now() - started < 3000) {
      if (Date.now() - started > 30_000) break;
      const asked = performance.now();
      health.push(await replica.get('/healthz', 1000));
      slowest = Math.max(slowest, performance.now() - asked);
      renewals.add(renewTime()?.renewTime);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done()).toBe(true);
    expect(health.every((status) => status === 200)).toBe(true);
    expect(slowest).toBeLessThan(1000);
    expect(renewals.size).toBeGreaterThanOrEqual(3); // renewed every 400 ms over at least 3 s
    for (const ns of ['team-a', 'team-b'])
      for (const node of Object.values(api.nodes(ns, 'heavy')))
        // The step budget (about 50 ms of work), or the time budget first on a machine that busy.
        expect(node).toEqual({
          phase: 'Failed',
          message: expect.stringMatching(
            /^unable to evaluate expression 'let r = 1\.\.700; all\(r, all\(r, all\(r, true\)\)\)': (step|time) budget exceeded: the agent evaluates a successCondition in at most 100000 steps and 100 ms$/,
          ),
        });
    expect(api.nodes('team-c', 'plain')['plain-1']).toEqual({
      phase: 'Succeeded',
      outputs: { result: 'pong' },
    });
    // Written once each, by the replica that evaluated it.
    const written = api.patches.flatMap((p) => Object.keys(p.nodes)).filter((n) => n.startsWith('heavy-'));
    expect(written).toHaveLength(10);
    console.log(
      `budget: ${health.length} /healthz, slowest ${Math.round(slowest)} ms, ${renewals.size} renewals`,
    );
  }, 60_000);
});
