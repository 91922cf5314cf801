// Replicas of the shared agent that must not run a step twice, under the real controller and API server: one
// whose API connection hangs (a TCP proxy between it and the API server stops passing bytes), one paused with
// SIGSTOP past its lease, a second process with the same AGENT_IDENTITY, another agent on the same Lease names,
// and an AGENT_SHARDS change with old and new replicas side by side. Every step calls a counting upstream (a
// plugin by URL, which knows each caller by its token, and an HTTP endpoint); each plugin call is checked, when
// it arrives, against the Lease of its TaskSet's shard. Every workflow must end Succeeded, every step executed
// once, and no replica may call for a shard whose Lease another holds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { shardOf } from '../../apps/shared-agent/src/leases/shard-leases.js';
import { HangingProxy } from '../../apps/shared-agent/test/support/hanging-proxy.js';
import {
  restartSharedAgents,
  SHARED_AGENT,
  sharedAgentProcesses,
  startSharedAgentReplica,
  stopSharedAgentReplicas,
} from '../../tools/argo-stack/src/shared-agents.js';
import type { StackProcess } from '../../tools/argo-stack/src/stack.js';
import {
  create,
  kubeClient,
  kubectl,
  prepareNamespace,
  until,
  waitForWorkflow,
  type ManifestDoc,
} from './support/cluster.js';
import { COUNTER_KEY, CountingUpstream } from './support/counting-upstream.js';
import { reportText } from './support/report.js';
import { shardLeases, shardsSettled, sharedStack } from './support/shared-stack.js';

const NS = 'ep-replicas';
const OTHER_NS = 'ep-replicas-b';
const SHARDS = 32;
const LEASE_MS = 3000;
const OWN_PREFIX = 'replicas-b';

interface Replica {
  identity: string;
  shards: number;
  prefix: string;
}

describe('shared-agent replicas that must not run a step twice', () => {
  const state = sharedStack();
  const client = kubeClient(state);
  const run = Date.now().toString(36);
  let upstream: CountingUpstream;
  let agentEnv: Record<string, string> = {};
  /** How each replica (by pod name) names itself and counts shards, where it differs from the Deployment's. */
  const replicas = new Map<string, Replica>();
  const replicaOf = (name: string): Replica =>
    replicas.get(name) ?? { identity: name, shards: SHARDS, prefix: SHARED_AGENT };

  /** Each replica makes its own token for the plugin (<state>/shared-agent/<pod>/argo/counter/token). */
  const tokens = new Map<string, string>();
  function callerOf(token: string): string | undefined {
    if (!tokens.has(token)) {
      const dir = join(state.dir, SHARED_AGENT);
      for (const pod of readdirSync(dir)) {
        try {
          tokens.set(readFileSync(join(dir, pod, 'argo', COUNTER_KEY, 'token'), 'utf8').trim(), pod);
        } catch {
          // not a replica's folder, or no token yet
        }
      }
    }
    return tokens.get(token);
  }
  async function holderOf(call: { namespace: string; workflow: string; replica: string }): Promise<string> {
    const { shards, prefix } = replicaOf(call.replica);
    const lease = await client.find<{ spec?: { holderIdentity?: string } }>(
      `/apis/coordination.k8s.io/v1/namespaces/argo/leases/${prefix}-shard-${shardOf(call.namespace, call.workflow, shards)}`,
    );
    return lease?.spec?.holderIdentity ?? '';
  }

  beforeAll(async () => {
    upstream = await CountingUpstream.start(state.hostAddr, { callerOf, holderOf });
    await Promise.all([prepareNamespace(state, NS), prepareNamespace(state, OTHER_NS)]);
    agentEnv = {
      PLUGINS: 'none',
      AGENT_EXTERNAL_PLUGINS: `${COUNTER_KEY}=${upstream.url}`,
      AGENT_NAMESPACES: NS,
      AGENT_LEASE_DURATION: `${LEASE_MS / 1000}s`,
    };
    await restartSharedAgents(state, () => undefined, agentEnv);
    await shardsSettled(state);
  });
  afterAll(async () => {
    await upstream?.close();
    // The other suites' replicas: the Deployment's settings, every shard held, no Lease of another set left.
    await restartSharedAgents(state, () => undefined);
    kubectl(state, [
      'delete',
      'leases',
      '-n',
      'argo',
      '-l',
      `executor-plugins.dev/shared-agent=${OWN_PREFIX}`,
    ]);
    await shardsSettled(state);
  });

  const HELD = ['held', 'after'];
  const QUICK = ['quick', 'quick-http'];
  /** A plugin step that runs until released, then an HTTP step. */
  const heldWorkflow = (name: string): ManifestDoc => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { name },
    spec: {
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [[{ name: 'held', template: 'held' }], [{ name: 'after', template: 'after' }]],
        },
        { name: 'held', plugin: { [COUNTER_KEY]: { step: 'held', hold: true } } },
        { name: 'after', http: { url: upstream.httpUrl('after') } },
      ],
    },
  });
  /** A plugin step and an HTTP step side by side, each done at its first call. */
  const quickWorkflow = (name: string): ManifestDoc => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { name },
    spec: {
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [
            [
              { name: 'quick', template: 'quick' },
              { name: 'quick-http', template: 'quick-http' },
            ],
          ],
        },
        { name: 'quick', plugin: { [COUNTER_KEY]: { step: 'quick' } } },
        { name: 'quick-http', http: { url: upstream.httpUrl('quick-http') } },
      ],
    },
  });

  /** The shards' holders now (shard → identity). */
  async function holders(prefix = SHARED_AGENT): Promise<Map<number, string>> {
    const leases = await shardLeases(state, prefix);
    return new Map(
      leases.map((l) => [
        Number(l.metadata.name.slice(`${prefix}-shard-`.length)),
        l.spec?.holderIdentity ?? '',
      ]),
    );
  }
  /** Workflow names whose TaskSets fall in the shards of the given holders, `count` of each. */
  async function namesOn(what: string, wanted: Record<string, number>, namespace = NS): Promise<string[]> {
    const held = await holders();
    const left = { ...wanted };
    const names: string[] = [];
    for (let i = 0; Object.values(left).some((n) => n > 0); i++) {
      if (i > 10_000) throw new Error(`no names on ${JSON.stringify(wanted)}: ${JSON.stringify([...held])}`);
      const name = `${what}-${run}-${i}`;
      const holder = held.get(shardOf(namespace, name, SHARDS)) ?? '';
      if ((left[holder] ?? 0) > 0) {
        left[holder]!--;
        names.push(name);
      }
    }
    return names;
  }
  const submit = (names: string[], doc: (name: string) => ManifestDoc, namespace = NS) =>
    Promise.all(names.map((name) => create(state, namespace, doc(name))));
  const everyHeldStepRunning = (names: string[]) =>
    until(
      'every held step called',
      120,
      () => names.every((n) => upstream.called(NS, n, 'held')) || undefined,
    );
  async function phases(
    names: string[],
    namespace = NS,
    timeoutMs = 120_000,
  ): Promise<Record<string, number>> {
    const outcomes = await Promise.all(names.map((n) => waitForWorkflow(state, namespace, n, timeoutMs)));
    return outcomes.reduce<Record<string, number>>(
      (acc, o) => ({ ...acc, [o.phase]: (acc[o.phase] ?? 0) + 1 }),
      {},
    );
  }
  /** `<workflow>/<step>: <executions>` of each step. */
  const executions = (runs: Array<[string[], string[]]>, namespace = NS) =>
    runs.flatMap(([names, steps]) =>
      names.flatMap((n) => steps.map((s) => `${n}/${s}: ${upstream.executions(namespace, n, s)}`)),
    );
  const once = (runs: Array<[string[], string[]]>) =>
    runs.flatMap(([names, steps]) => names.flatMap((n) => steps.map((s) => `${n}/${s}: 1`)));
  /** The calls of the test running now. */
  let firstCall = 0;
  beforeEach(() => {
    firstCall = upstream.calls.length;
  });
  /** Plugin calls of this test made by a replica while another held the shard of their TaskSet. */
  const byNonHolders = () =>
    upstream.calls
      .slice(firstCall)
      .filter((c) => c.kind === 'plugin' && c.holder !== replicaOf(c.replica).identity);
  const lastCallOf = (replica: string) =>
    Math.max(...upstream.calls.filter((c) => c.replica === replica).map((c) => c.at));

  /**
   * The replica's log lines (JSON) from byte `from` on, of its last start only (a pod name used again, by a run
   * before, appends to the same log).
   */
  function logLines(proc: StackProcess, from = 0): Array<{ msg?: string; reason?: string }> {
    const lines = readFileSync(proc.log)
      .subarray(from)
      .toString('utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; reason?: string });
    const started = lines.findLastIndex((l) => l.msg === 'shared agent started');
    return lines.slice(Math.max(started, 0));
  }
  const refusals = (proc: StackProcess, from = 0) =>
    logLines(proc, from).filter((l) => l.msg === 'not working any shard');
  /** Waits a while for the replica to refuse; answers whether it did (the steps are asserted first). */
  const refused = (proc: StackProcess) =>
    until(`${proc.name} refuses`, 30, () => refusals(proc).length > 0 || undefined).then(
      () => true,
      () => false,
    );
  async function readyz(port: number): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    return `${res.status} ${await res.text()}`;
  }
  const afterRequeue = () => new Promise((r) => setTimeout(r, 2000)); // a stray call would come within its 1 s requeue

  it('a replica whose API connection hangs: the others take its shards, no step runs twice', async () => {
    const proxy = await HangingProxy.start(`https://${state.hostAddr}:${state.ports.apiServer}`);
    const name = `${SHARED_AGENT}-cut`;
    const cut = await startSharedAgentReplica(state, name, {
      env: agentEnv,
      apiServer: proxy.url.replace(/^http:/, 'https:'),
    });
    try {
      await shardsSettled(state);
      const others = sharedAgentProcesses(state).filter((p) => p !== cut.proc);
      const held = await namesOn('cut-held', { [name]: 4, [others[0]!.name]: 2, [others[1]!.name]: 2 });
      const fresh = await namesOn('cut-new', { [name]: 4 });
      await submit(held, heldWorkflow);
      await everyHeldStepRunning(held);

      proxy.hang();
      const hungAt = Date.now();
      await submit(fresh, quickWorkflow); // in the cut replica's shards: it never sees them
      await until(
        'the others hold every shard',
        60,
        async () => [...(await holders()).values()].every((h) => h !== '' && h !== name) || undefined,
      );
      const takenMs = Date.now() - hungAt;
      upstream.release(NS, held);
      const ended = await phases([...held, ...fresh]);
      await afterRequeue();
      reportText([
        `shared-agent-replicas: API connection hung: its last call ${lastCallOf(name) - hungAt} ms after the hang, the others held every shard after ${takenMs} ms (lease ${LEASE_MS} ms); ${JSON.stringify(ended)}; ${byNonHolders().length} calls by a replica not holding the shard`,
      ]);
      expect(ended).toEqual({ Succeeded: held.length + fresh.length });
      const runs: Array<[string[], string[]]> = [
        [held, HELD],
        [fresh, QUICK],
      ];
      expect(executions(runs)).toEqual(once(runs));
      expect(byNonHolders()).toEqual([]);
    } finally {
      await stopSharedAgentReplicas(state, [cut.proc], 'SIGKILL');
      await proxy.close();
      await client
        .call('DELETE', `/apis/coordination.k8s.io/v1/namespaces/argo/leases/${SHARED_AGENT}-member-${name}`)
        .catch(() => undefined);
    }
  });

  it('a replica paused with SIGSTOP past its lease, then continued: no step runs twice, and it settles again', async () => {
    await shardsSettled(state);
    const [paused, other] = sharedAgentProcesses(state) as [StackProcess, StackProcess];
    const held = await namesOn('paused-held', { [paused.name]: 4, [other.name]: 4 });
    const fresh = await namesOn('paused-new', { [paused.name]: 4 });
    await submit(held, heldWorkflow);
    await everyHeldStepRunning(held);

    process.kill(paused.pid, 'SIGSTOP');
    try {
      const stoppedAt = Date.now();
      await submit(fresh, quickWorkflow); // their watch events wait in the paused replica's socket
      await until(
        'the other holds every shard',
        60,
        async () => [...(await holders()).values()].every((h) => h === other.name) || undefined,
      );
      // Continued as soon as the other has called the new steps, before their workflows end: the shards move back
      // while the controller takes their results (it clears a result one patch before it removes its task).
      await until(
        'the new steps called',
        120,
        () => fresh.every((n) => QUICK.every((step) => upstream.called(NS, n, step))) || undefined,
      );
      process.kill(paused.pid, 'SIGCONT');
      const continuedAt = Date.now();
      await shardsSettled(state);
      const settledMs = Date.now() - continuedAt;
      upstream.release(NS, held);
      const ended = await phases([...held, ...fresh]);
      await afterRequeue();
      reportText([
        `shared-agent-replicas: SIGSTOP for ${((continuedAt - stoppedAt) / 1000).toFixed(1)} s: settled again ${settledMs} ms after SIGCONT; ${JSON.stringify(ended)}; ${byNonHolders().length} calls by a replica not holding the shard`,
      ]);
      expect(ended).toEqual({ Succeeded: held.length + fresh.length });
      const runs: Array<[string[], string[]]> = [
        [held, HELD],
        [fresh, QUICK],
      ];
      expect(executions(runs)).toEqual(once(runs));
      expect(byNonHolders()).toEqual([]);
    } finally {
      process.kill(paused.pid, 'SIGCONT');
    }
  });

  it('a second replica with the same AGENT_IDENTITY, and replicas of other agents on the same Lease names, are refused and not ready: nothing runs twice; with its own prefix the other agent works', async () => {
    await shardsSettled(state);
    const [original, other] = sharedAgentProcesses(state) as [StackProcess, StackProcess];
    const held = await namesOn('refused-held', { [original.name]: 4, [other.name]: 2 });
    await submit(held, heldWorkflow);
    await everyHeldStepRunning(held);
    const logged = statSync(original.log).size;

    const twinName = `${SHARED_AGENT}-twin`;
    replicas.set(twinName, { identity: original.name, shards: SHARDS, prefix: SHARED_AGENT });
    const twin = await startSharedAgentReplica(state, twinName, {
      env: { ...agentEnv, AGENT_IDENTITY: original.name },
    });
    const twinRefused = await refused(twin.proc);
    // Then, once the twin is refused (so that each replica has one reason), a second Deployment serving
    // another namespace and one serving another instance ID.
    const [teamB, instanceB] = await Promise.all([
      startSharedAgentReplica(state, `${SHARED_AGENT}-team-b`, {
        env: { ...agentEnv, AGENT_NAMESPACES: OTHER_NS },
      }),
      startSharedAgentReplica(state, `${SHARED_AGENT}-instance-b`, {
        env: { ...agentEnv, AGENT_INSTANCE_ID: 'b' },
      }),
    ]);
    const refusing = [twin.proc, teamB.proc, instanceB.proc];
    let own: { proc: StackProcess; port: number } | undefined;
    try {
      const ours = await namesOn('refused-new', { [original.name]: 4, [other.name]: 2 });
      const theirs = Array.from({ length: 4 }, (_, i) => `refused-b-${run}-${i}`);
      await Promise.all([submit(ours, quickWorkflow), submit(theirs, quickWorkflow, OTHER_NS)]);
      const refusedAll = [twinRefused, await refused(teamB.proc), await refused(instanceB.proc)];
      const notReady = await Promise.all([twin, teamB, instanceB].map((r) => readyz(r.port)));
      upstream.release(NS, held);
      const oursEnded = await phases([...held, ...ours], NS, 60_000);
      // Nobody works the other namespace meanwhile: its agent refuses.
      const theirsEarly = upstream.calls.filter((c) => c.namespace === OTHER_NS);
      const refusalLines = refusing.map((p) => refusals(p).length);
      await stopSharedAgentReplicas(state, refusing);

      const ownName = `${SHARED_AGENT}-team-b-own`;
      replicas.set(ownName, { identity: ownName, shards: SHARDS, prefix: OWN_PREFIX });
      own = await startSharedAgentReplica(state, ownName, {
        env: { ...agentEnv, AGENT_NAMESPACES: OTHER_NS, AGENT_LEASE_PREFIX: OWN_PREFIX },
      });
      const theirsEnded = await phases(theirs, OTHER_NS);
      await afterRequeue();
      const byTwin = upstream.calls.filter((c) => c.replica === twinName);
      reportText([
        `shared-agent-replicas: same AGENT_IDENTITY, other namespaces, another instance ID on the same Leases: refusal lines ${JSON.stringify(refusalLines)}, ${byTwin.length} calls by the twin, ${theirsEarly.length} of the other namespace; ${JSON.stringify(oursEnded)}; on its own prefix the other agent's ${JSON.stringify(theirsEnded)}`,
      ]);
      expect(oursEnded).toEqual({ Succeeded: held.length + ours.length });
      const runs: Array<[string[], string[]]> = [
        [held, HELD],
        [ours, QUICK],
      ];
      expect(executions(runs)).toEqual(once(runs));
      expect(byTwin).toEqual([]);
      expect(theirsEarly).toEqual([]);
      expect(refusedAll).toEqual([true, true, true]);
      expect(notReady[0]).toMatch(
        new RegExp(
          `^503 not ready: another replica renews the member Lease ${SHARED_AGENT}-member-${original.name} of AGENT_IDENTITY=${original.name}: every replica needs an identity of its own`,
        ),
      );
      expect(notReady[1]).toMatch(
        new RegExp(
          `^503 not ready: these Leases belong to another agent \\(shards=${SHARDS};instance=;namespaces=${NS}; this one: shards=${SHARDS};instance=;namespaces=${OTHER_NS}\\): give each agent its own AGENT_LEASE_PREFIX or AGENT_LEASE_NAMESPACE`,
        ),
      );
      expect(notReady[2]).toMatch(
        new RegExp(
          `^503 not ready: these Leases belong to another agent \\(shards=${SHARDS};instance=;namespaces=${NS}; this one: shards=${SHARDS};instance=b;namespaces=${NS}\\)`,
        ),
      );
      expect(refusalLines).toEqual([1, 1, 1]);
      expect(refusals(original, logged)).toEqual([]);
      expect(theirsEnded).toEqual({ Succeeded: theirs.length });
      expect(executions([[theirs, QUICK]], OTHER_NS)).toEqual(once([[theirs, QUICK]]));
      expect(await readyz(own.port)).toBe('200 ok\n');
      expect(refusals(own.proc)).toEqual([]);
      expect(byNonHolders()).toEqual([]);
    } finally {
      await stopSharedAgentReplicas(state, [...refusing, ...(own ? [own.proc] : [])]);
    }
  });

  it('an AGENT_SHARDS change with old and new replicas side by side: the new wait, not ready; nothing lost, nothing doubled', async () => {
    await shardsSettled(state);
    const old = sharedAgentProcesses(state) as [StackProcess, StackProcess];
    const held = await namesOn('shards-held', { [old[0].name]: 4, [old[1].name]: 4 });
    await submit(held, heldWorkflow);
    await everyHeldStepRunning(held);

    const NEW_SHARDS = SHARDS / 2;
    const fresh = await Promise.all(
      [0, 1].map((i) => {
        const name = `${SHARED_AGENT}-shards${NEW_SHARDS}-${i}`;
        replicas.set(name, { identity: name, shards: NEW_SHARDS, prefix: SHARED_AGENT });
        return startSharedAgentReplica(state, name, {
          env: { ...agentEnv, AGENT_SHARDS: String(NEW_SHARDS) },
        });
      }),
    );
    const during = Array.from({ length: 8 }, (_, i) => `shards-during-${run}-${i}`);
    await submit(during, quickWorkflow);
    const refusedNew = [await refused(fresh[0]!.proc), await refused(fresh[1]!.proc)];
    const notReady = [await readyz(fresh[0]!.port), await readyz(fresh[1]!.port)];
    expect(await phases(during)).toEqual({ Succeeded: during.length });

    // As the Deployment's Recreate strategy (or scaling the old ReplicaSet to 0) would: the old pods go.
    const stoppedAt = Date.now();
    await stopSharedAgentReplicas(state, old);
    const identities = new Set(fresh.map((r) => r.proc.name));
    await until('the new replicas hold every shard', 60, async () => {
      const now = await holders();
      return Array.from({ length: NEW_SHARDS }, (_, n) => now.get(n)).every((h) => identities.has(h ?? ''))
        ? true
        : undefined;
    });
    const takenMs = Date.now() - stoppedAt;
    const after = Array.from({ length: 8 }, (_, i) => `shards-after-${run}-${i}`);
    await submit(after, quickWorkflow);
    upstream.release(NS, held);
    const ended = await phases([...held, ...after]);
    await afterRequeue();
    const early = upstream.calls.filter((c) => identities.has(c.replica) && c.at < stoppedAt);
    reportText([
      `shared-agent-replicas: AGENT_SHARDS ${SHARDS} -> ${NEW_SHARDS}: the new replicas held every shard ${takenMs} ms after the old ones were stopped; ${JSON.stringify(ended)}; ${early.length} calls by a new replica before; ${byNonHolders().length} by a replica not holding the shard`,
    ]);
    expect(ended).toEqual({ Succeeded: held.length + after.length });
    const runs: Array<[string[], string[]]> = [
      [held, HELD],
      [during, QUICK],
      [after, QUICK],
    ];
    expect(executions(runs)).toEqual(once(runs));
    expect(early).toEqual([]);
    expect(byNonHolders()).toEqual([]);
    expect(refusedNew).toEqual([true, true]);
    for (const text of notReady)
      expect(text).toMatch(
        new RegExp(`^503 not ready: replicas alive with AGENT_SHARDS=${SHARDS}, this one has ${NEW_SHARDS}`),
      );
    for (const r of fresh) expect(await readyz(r.port)).toBe('200 ok\n');
  });
});
