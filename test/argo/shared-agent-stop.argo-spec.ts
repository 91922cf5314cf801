// `argo stop` and `argo terminate` under the real controller with the shared agent: one workflow with a long job on
// every backend of the data-job runner and the build trigger; the stand-ins count the cancel requests. Each job
// is cancelled once, nothing else is, also when the replica running them is killed with SIGKILL beforehand or
// the Deployment rolls out beforehand (the rollout itself cancels nothing); a workflow that finishes cancels
// nothing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BACKENDS, startLongJobs, type LongJobs } from '../../apps/shared-agent/test/support/long-jobs.js';
import { sharedAgentProcesses } from '../../tools/argo-stack/src/shared-agents.js';
import type { StackProcess } from '../../tools/argo-stack/src/stack.js';
import { kubeClient, prepareNamespace, waitForWorkflow } from './support/cluster.js';
import { reportText } from './support/report.js';
import { configureSharedAgent, rolloutSharedAgent, sharedStack } from './support/shared-stack.js';
import { standInsOnStack } from './support/upstreams.js';

const NAMESPACE = 'ep-stop';

describe('the shared agent: argo stop and argo terminate cancel each job once', () => {
  const state = sharedStack();
  const client = kubeClient(state);
  let jobs: LongJobs;
  const configure = () => configureSharedAgent(state, { ...jobs.env, PLUGINS: 'data-job,build' });

  beforeAll(async () => {
    // On the stack's HOST_ADDR with its certificate: Data Factory's identity stand-in speaks only HTTPS.
    standInsOnStack(state);
    jobs = await startLongJobs();
    await prepareNamespace(state, NAMESPACE);
    await configure();
  });
  afterAll(async () => {
    await jobs?.close();
  });

  const workflows = `/apis/argoproj.io/v1alpha1/namespaces/${NAMESPACE}/workflows`;
  /** A workflow whose steps run in parallel, one per backend. */
  async function submit(prefix: string, wait = true): Promise<string> {
    const created = await client.call<{ metadata: { name: string } }>('POST', workflows, {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { generateName: `${prefix}-` },
      spec: {
        entrypoint: 'main',
        templates: [
          { name: 'main', steps: [BACKENDS.map((b) => ({ name: b, template: b }))] },
          ...BACKENDS.map((b) => {
            const plugin = jobs.plugin(b, `{{workflow.name}}-${b}`);
            const [key] = Object.keys(plugin);
            return { name: b, plugin: { [key!]: { ...(plugin[key!] as object), wait } } };
          }),
        ],
      },
    });
    return created.metadata.name;
  }

  type Nodes = Record<string, { type?: string; phase?: string; message?: string; templateName?: string }>;
  const pluginNodes = async (name: string) =>
    Object.values(
      (await client.get<{ status?: { nodes?: Nodes } }>(`${workflows}/${name}`)).status?.nodes ?? {},
    ).filter((n) => n.type === 'Plugin');

  async function allRunning(name: string): Promise<void> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const nodes = await pluginNodes(name);
      if (nodes.length === BACKENDS.length && nodes.every((n) => n.phase === 'Running')) return;
      if (Date.now() > deadline) throw new Error(`${name}: not all running: ${JSON.stringify(nodes)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  const shutdown = (name: string, strategy: 'Stop' | 'Terminate') =>
    client.call(
      'PATCH',
      `${workflows}/${name}`,
      { spec: { shutdown: strategy } },
      'application/merge-patch+json',
    );

  const delta = (before: Record<string, number>) =>
    Object.fromEntries(Object.entries(jobs.cancels()).map(([b, n]) => [b, n - before[b]!]));
  const once = Object.fromEntries(BACKENDS.map((b) => [b, 1]));

  async function stopAndCount(name: string, strategy: 'Stop' | 'Terminate', before: Record<string, number>) {
    const stopped = Date.now();
    await shutdown(name, strategy);
    const outcome = await waitForWorkflow(state, NAMESPACE, name, 120_000);
    const deadline = Date.now() + 30_000;
    while (Object.values(delta(before)).some((n) => n < 1) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    const cancelledMs = Date.now() - stopped;
    await new Promise((r) => setTimeout(r, 5000)); // a second cancel, or a requeue, would come by now
    reportText([
      `shared-agent-stop: ${strategy}: every job cancelled ${(cancelledMs / 1000).toFixed(1)} s after the stop`,
    ]);
    return outcome;
  }

  it.each(['Stop', 'Terminate'] as const)(
    'argo %s: the workflow fails, every job is cancelled once, no node is written after the stop',
    async (strategy) => {
      const other = await submit('going');
      const name = await submit(strategy.toLowerCase());
      await allRunning(name);
      await allRunning(other);
      const before = jobs.cancels();
      const outcome = await stopAndCount(name, strategy, before);
      expect(outcome.phase).toBe('Failed');
      expect(
        Object.values(outcome.nodes)
          .filter((n) => n.type === 'Plugin')
          .map((n) => [n.phase, n.message]),
      ).toEqual(BACKENDS.map(() => ['Failed', `Stopped with strategy '${strategy}'`]));
      expect(delta(before)).toEqual(once);
      // The other workflow's jobs still run: then it is stopped too, and they are cancelled, once.
      expect((await pluginNodes(other)).map((n) => n.phase)).toEqual(BACKENDS.map(() => 'Running'));
      const again = jobs.cancels();
      await stopAndCount(other, 'Terminate', again);
      expect(delta(again)).toEqual(once);
    },
  );

  it('a workflow that finishes cancels nothing (wait: false steps: the jobs run on)', async () => {
    const before = jobs.cancels();
    const name = await submit('finishes', false);
    const outcome = await waitForWorkflow(state, NAMESPACE, name, 120_000);
    expect(outcome.phase).toBe('Succeeded');
    await new Promise((r) => setTimeout(r, 5000));
    expect(delta(before)).toEqual(Object.fromEntries(BACKENDS.map((b) => [b, 0])));
  });

  /** Whether a replica's log says it ran a task of the workflow. */
  const ranBy = (proc: StackProcess, name: string) =>
    readFileSync(proc.log, 'utf8')
      .split('\n')
      .some((l) => l.includes('"task done"') && l.includes(`"workflow":"${name}"`));
  /** Waits until one of `replicas` has run the workflow's tasks (taken over its shard), then for every task. */
  async function takenOver(replicas: StackProcess[], name: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!replicas.some((p) => ranBy(p, name))) {
      if (Date.now() > deadline)
        throw new Error(`none of ${replicas.map((p) => p.name).join(', ')} ran ${name}'s tasks`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    await new Promise((r) => setTimeout(r, 3000)); // every task offered again (one poll per second)
  }

  it('the replica running the jobs killed with SIGKILL: the one that takes them over cancels each once', async () => {
    const name = await submit('killed');
    await allRunning(name);
    const replicas = sharedAgentProcesses(state);
    const victim = replicas.find((p) => ranBy(p, name))!;
    process.kill(victim.pid, 'SIGKILL');
    // The survivor takes the shard after the lease (15 s) and is offered the tasks again: it finds each job.
    await takenOver(
      replicas.filter((p) => p !== victim),
      name,
      90_000,
    );
    const before = jobs.cancels();
    const outcome = await stopAndCount(name, 'Stop', before);
    expect(outcome.phase).toBe('Failed');
    expect(delta(before)).toEqual(once);
    await configure(); // the killed replica comes back, as its Deployment would bring it back
  });

  it('a rollout (new replicas replace the old ones) cancels nothing; argo stop then cancels each job once', async () => {
    const name = await submit('rolled');
    await allRunning(name);
    const old = sharedAgentProcesses(state);
    const before = jobs.cancels();
    const rolled = Date.now();
    await rolloutSharedAgent(state, { ...jobs.env, PLUGINS: 'data-job,build' });
    const fresh = sharedAgentProcesses(state);
    expect(fresh.filter((p) => old.includes(p))).toEqual([]);
    // A new replica holds the workflow's shard and is offered its tasks again: it finds each job.
    await takenOver(fresh, name, 90_000);
    const replacedMs = Date.now() - rolled;
    expect(delta(before)).toEqual(Object.fromEntries(BACKENDS.map((b) => [b, 0])));
    reportText([
      `shared-agent-stop: rollout: ${old.length} replicas replaced and the tasks taken over in ${(replacedMs / 1000).toFixed(1)} s, no job cancelled`,
    ]);
    expect((await pluginNodes(name)).map((n) => n.phase)).toEqual(BACKENDS.map(() => 'Running'));
    const stopped = jobs.cancels();
    const outcome = await stopAndCount(name, 'Stop', stopped);
    expect(outcome.phase).toBe('Failed');
    expect(delta(stopped)).toEqual(once);
  });
});
