// npm run bench:agents: Argo's agent pod per workflow against the shared agent, on two real Argo stacks of this
// machine started one after the other in one run, both with the same patch rate (1 s). Each workflow has three
// plugin steps (the collection's chat notifier, posting to the Slack stand-in) and one HTTP step (a GET to a
// server of this process). On the real node (the default) both agents are real pods: Argo's agent pods with the
// collection's sidecar, and the shared agent installed by `kubectl apply -k manifests/shared-agent`; their
// memory is their pods' cgroups' working set. See docs/performance.md, "Agent pods and the shared agent".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDuration } from '@app/contract';
import { setStandInHost } from '@app/local-agent';
import { startSlackDemoWorkspace } from '../../apps/chat-notifier/demo/upstreams.js';
import { sharedAgentProcesses } from '../../tools/argo-stack/src/shared-agents.js';
import { kubeClient, readState, type StackState } from '../../tools/argo-stack/src/stack.js';
import { kubectlAsync, prepareNamespace } from '../../test/argo/support/cluster.js';
import { installPlugin } from '../../test/argo/support/plugins.js';
import { configureSharedAgent } from '../../test/argo/support/shared-stack.js';
import { median, percentile } from '../src/stats.js';
import { fmt, renderTable } from '../src/table.js';
import {
  installSharedAgentPods,
  SHARED_AGENT_NAMESPACE,
  SHARED_AGENT_SELECTOR,
} from '../../test/argo/support/shared-agent-pods.js';
import {
  groupProcesses,
  MemorySampler,
  type MemorySample,
  podProcesses,
  podsWorkingSet,
  processesRss,
  TaskSetTimes,
  WorkflowPhases,
} from './measure.js';

const NAMESPACE = 'bench-agents';
// Argo's defaults (20 queries a second, 32 workers) throttle the controller's own API calls well before either
// agent is busy: every step is a Workflow update, a TaskSet patch and a TaskResult delete.
const CONTROLLER_DEFAULT = '200,300,64';
const CONTROLLER_ARGO = '20,30,32';

const HELP = `usage: npm run bench:agents -- [options]
  --pods LIST      concurrent workflows with Argo's agent pod per workflow (default 10,25,50; none: skip)
  --shared LIST    concurrent workflows with the shared agent (default 50,200,1000; none: skip)
  --timeout DUR    longest one size may take before it is reported as not finished (default 15m)
  --node KIND      real (default): pods are containers of a real node (kubelet, containerd), the shared
                   agent is the Deployment of manifests/shared-agent; runner: the pod runner's processes,
                   the shared agent the stack's processes
  --controller Q,B,W
                   the workflow-controller's --qps, --burst and --workflow-workers on both stacks
                   (default ${CONTROLLER_DEFAULT}, raised as Argo's scaling guide says; argo: Argo's own 20,30,32)
  --out FILE       results file (default bench/.work/agents.json, untracked)
Needs root (the stacks' pods) and npm run build (the pod runner runs dist/apps; the real node builds images).`;

const PATCH_RATE = '1s';

type Mode = 'pods' | 'shared';
type Node = 'real' | 'runner';

export interface SizeResult {
  mode: Mode;
  workflows: number;
  succeeded: number;
  finished: boolean;
  wallS?: number;
  taskP50Ms?: number;
  taskP99Ms?: number;
  firstResultP50Ms?: number;
  /** Real node, agent pods: a pod's first sight in a watch → all its containers running. */
  podRunningP50Ms?: number;
  /** The agents' peak memory: their pods' cgroups' working set (real node) or their processes' RSS. */
  peakRssMiB: number;
  /** Agent pods alive at once (pods) or replicas (shared). */
  peakAgents: number;
  peakProcesses: number;
  loadAfter: number;
  failures: Record<string, number>;
}

function sizes(value: string | undefined, fallback: number[]): number[] {
  if (value === undefined) return fallback;
  if (value === 'none') return [];
  const list = value.split(',').map((v) => Number(v.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`expected a list of sizes such as 10,25,50 (or none), got '${value}'`);
  return list;
}

function workflow(httpUrl: string): Record<string, unknown> {
  const notify = (n: number) => [
    { name: `notify-${n}`, template: 'notify', arguments: { parameters: [{ name: 'n', value: String(n) }] } },
  ];
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'bench-' },
    spec: {
      entrypoint: 'main',
      templates: [
        { name: 'main', steps: [notify(1), notify(2), notify(3), [{ name: 'check', template: 'check' }]] },
        {
          name: 'notify',
          inputs: { parameters: [{ name: 'n' }] },
          plugin: {
            notify: {
              slack: { channel: '#builds', text: 'bench {{workflow.name}} step {{inputs.parameters.n}}' },
            },
          },
        },
        { name: 'check', http: { url: httpUrl } },
      ],
    },
  };
}

async function listen(host: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}/ok` };
}

/**
 * The agents' pods, as a watch sees them: their names (their containers' HOSTNAME under the pod runner), their
 * uids (their cgroups on a real node), and for each the time from its first sight to all containers running.
 */
class AgentPods {
  readonly names = new Set<string>();
  readonly uids = new Set<string>();
  readonly toRunningMs: number[] = [];
  private readonly seen = new Map<string, number>();

  constructor(state: StackState, namespace: string, selector: string, signal: AbortSignal) {
    void kubeClient(state).watch<{
      metadata: { name: string; uid: string };
      status?: { phase?: string; containerStatuses?: Array<{ state?: { running?: unknown } }> };
    }>(
      `/api/v1/namespaces/${namespace}/pods`,
      (event) => {
        const { name, uid } = event.object.metadata;
        if (event.type === 'DELETED') {
          this.names.delete(name);
          this.uids.delete(uid);
          return;
        }
        this.names.add(name);
        this.uids.add(uid);
        if (!this.seen.has(uid)) this.seen.set(uid, Date.now());
        const statuses = event.object.status?.containerStatuses ?? [];
        const running = statuses.length > 0 && statuses.every((c) => c.state?.running);
        if (running && this.seen.get(uid)! > 0) {
          this.toRunningMs.push(Date.now() - this.seen.get(uid)!);
          this.seen.set(uid, -1);
        }
      },
      signal,
      { query: `labelSelector=${encodeURIComponent(selector)}` },
    );
  }
}

/**
 * What the memory of a size's agents is taken from, and how many agents run now: on a real node the pods a
 * sample was taken from (a Pending pod has no cgroup yet), under the pod runner the pods or replicas seen.
 */
function agentMemory(
  state: StackState,
  mode: Mode,
  pods: AgentPods,
): { measure: () => MemorySample; agents: (sample: MemorySample) => number } {
  if (state.realNode) {
    const kubepods = join('/sys/fs/cgroup/memory', state.realNode.cgroupRoot, 'kubepods');
    return { measure: podsWorkingSet(kubepods, () => [...pods.uids]), agents: (sample) => sample.count };
  }
  if (mode === 'pods')
    return { measure: processesRss(() => podProcesses(pods.names)), agents: () => pods.names.size };
  const leaders = sharedAgentProcesses(state).map((p) => p.pid);
  return { measure: processesRss(() => groupProcesses(leaders)), agents: () => leaders.length };
}

async function runSize(
  state: StackState,
  mode: Mode,
  n: number,
  httpUrl: string,
  timeoutMs: number,
): Promise<SizeResult> {
  const client = kubeClient(state);
  const stop = new AbortController();
  const times = new TaskSetTimes(client, NAMESPACE, stop.signal);
  const phases = new WorkflowPhases(client, NAMESPACE, stop.signal);
  const pods =
    mode === 'pods'
      ? new AgentPods(state, NAMESPACE, 'workflows.argoproj.io/component=agent', stop.signal)
      : new AgentPods(state, SHARED_AGENT_NAMESPACE, SHARED_AGENT_SELECTOR, stop.signal);
  let peakAgents = 0;
  const memory = agentMemory(state, mode, pods);
  const sampler = new MemorySampler(() => {
    const sample = memory.measure();
    peakAgents = Math.max(peakAgents, memory.agents(sample));
    return sample;
  });
  await new Promise((r) => setTimeout(r, 1000));
  const doc = workflow(httpUrl);
  const started = Date.now();
  const names: string[] = [];
  for (let i = 0; i < n; i += 25)
    names.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(25, n - i) }, () =>
          client
            .call<{ metadata: { name: string } }>(
              'POST',
              `/apis/argoproj.io/v1alpha1/namespaces/${NAMESPACE}/workflows`,
              doc,
            )
            .then((w) => w.metadata.name),
        ),
      )),
    );
  const deadline = started + timeoutMs;
  while (phases.ended(names) < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
  const finished = phases.ended(names) === n;
  const ends = names.map((name) => phases.endedAt.get(name)).filter((t): t is number => t !== undefined);
  sampler.stop();
  stop.abort();
  const tasks = times.taskLatencies();
  const first = times.firstResultLatencies();
  const result: SizeResult = {
    mode,
    workflows: n,
    succeeded: phases.count('Succeeded', names),
    finished,
    wallS: finished ? (Math.max(...ends) - started) / 1000 : undefined,
    taskP50Ms: median(tasks),
    taskP99Ms: percentile(tasks, 99),
    firstResultP50Ms: median(first),
    ...(state.realNode && mode === 'pods' && { podRunningP50Ms: median(pods.toRunningMs) }),
    peakRssMiB: Math.round(sampler.peakKiB / 1024),
    peakAgents,
    peakProcesses: sampler.peakProcesses,
    loadAfter: Number(loadavg()[0]!.toFixed(2)),
    failures: phases.failures(names),
  };
  console.error(`bench:agents: ${mode} N=${n}: ${JSON.stringify(result)}`);
  // The next size starts from an empty namespace (and, with pods, no agent pod left).
  try {
    await kubectlAsync(state, [
      'delete',
      'workflows',
      '--all',
      '-n',
      NAMESPACE,
      '--wait=true',
      '--timeout=5m',
    ]);
  } catch (err) {
    // The figures stand; the next size (if any) starts with the leftovers still going.
    console.error(`bench:agents: deleting the workflows of N=${n}: ${(err as Error).message.split('\n')[0]}`);
  }
  return result;
}

/** --qps, --burst and --workflow-workers for the controller, from Q,B,W (or argo: Argo's defaults). */
function controllerFlags(value: string): string[] {
  const spelled = value === 'argo' ? CONTROLLER_ARGO : value;
  const numbers = spelled.split(',');
  if (numbers.length !== 3 || numbers.some((v) => !/^[1-9]\d{0,4}$/.test(v.trim())))
    throw new Error(`--controller expects Q,B,W such as ${CONTROLLER_DEFAULT} (or argo), got '${value}'`);
  return ['--qps', '--burst', '--workflow-workers'].flatMap((flag, i) => [flag, numbers[i]!.trim()]);
}

function stackUp(root: string, dir: string, mode: Mode, node: Node, controller: string[]): StackState {
  execFileSync(
    'node',
    [
      'tools/run-cli.mjs',
      'argo',
      'up',
      '--dir',
      dir,
      '--patch-rate',
      PATCH_RATE,
      ...controller,
      '--node',
      node,
      // On a real node the shared agent is installed as users install it (runMode).
      ...(mode === 'shared' && node === 'runner' ? ['--agent', 'shared'] : []),
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return readState(dir)!;
}

function stackDown(root: string, dir: string): void {
  execFileSync('node', ['tools/run-cli.mjs', 'argo', 'down', '--dir', dir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function runMode(
  root: string,
  mode: Mode,
  node: Node,
  list: number[],
  timeoutMs: number,
  base: string,
  controller: string[],
): Promise<SizeResult[]> {
  if (list.length === 0) return [];
  const dir = join(base, mode);
  const state = stackUp(root, dir, mode, node, controller);
  setStandInHost(state.hostAddr);
  const slack = await startSlackDemoWorkspace();
  const http = await listen(state.hostAddr);
  try {
    await prepareNamespace(state, NAMESPACE);
    const env = { ...slack.env, PLUGINS: 'notify' };
    if (mode === 'pods') await installPlugin(state, NAMESPACE, 'collection', env);
    else if (state.realNode) await installSharedAgentPods(state, env, { ARGO_AGENT_PATCH_RATE: PATCH_RATE });
    else await configureSharedAgent(state, env);
    const results: SizeResult[] = [];
    for (const n of list) results.push(await runSize(state, mode, n, http.url, timeoutMs));
    return results;
  } finally {
    http.server.close();
    await slack.close();
    stackDown(root, dir);
  }
}

function table(results: SizeResult[]): string {
  const s = (ms: number | undefined) => (ms === undefined ? '–' : fmt(ms / 1000, ' s', 2));
  return renderTable(
    [
      'agent',
      'workflows',
      'Succeeded',
      'wall to all ended',
      'task → result p50',
      'p99',
      'first task → first result p50',
      'pod created → Running p50',
      'peak memory, agents + sidecars',
      'agents at once',
    ],
    results.map((r) => [
      r.mode === 'pods' ? "Argo's agent pod per workflow" : 'shared agent (2 replicas)',
      String(r.workflows),
      `${r.succeeded}${r.finished ? '' : ' (not finished)'}`,
      r.wallS === undefined ? 'timed out' : fmt(r.wallS, ' s', 1),
      s(r.taskP50Ms),
      s(r.taskP99Ms),
      s(r.firstResultP50Ms),
      s(r.podRunningP50Ms),
      `${r.peakRssMiB} MiB`,
      String(r.peakAgents),
    ]),
  );
}

function memAvailableMiB(): number {
  const line = /^MemAvailable:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'));
  return Math.round(Number(line?.[1] ?? 0) / 1024);
}

/**
 * Where a pod per workflow stops fitting: the sizes that did not finish, and what this machine's free memory
 * holds at the memory per agent pod measured at the largest size (an estimate, said so).
 */
function podsFit(results: SizeResult[], availableMiB: number): string | undefined {
  const pods = results.filter((r) => r.mode === 'pods');
  if (pods.length === 0) return undefined;
  const unfinished = pods.filter((r) => !r.finished).map((r) => r.workflows);
  const largest = pods.reduce((a, b) => (b.peakAgents > a.peakAgents ? b : a));
  const perPod = largest.peakRssMiB / Math.max(1, largest.peakAgents);
  return (
    `agent pods: ${unfinished.length ? `N = ${unfinished.join(', ')} did not finish; ` : 'every size finished; '}` +
    `${Math.round(perPod)} MiB per pod (agent + sidecar) at N = ${largest.workflows}, ${availableMiB} MiB available ` +
    `at the start: about ${Math.floor(availableMiB / perPod)} agent pods at once before memory runs out (estimate)`
  );
}

export async function runAgentsBench(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        pods: { type: 'string' },
        shared: { type: 'string' },
        timeout: { type: 'string' },
        controller: { type: 'string' },
        node: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    console.error(`bench:agents: ${(err as Error).message.split('\n')[0]}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  // This runs bundled, from bench/.work/agents/ (three levels under the root, as test/argo/support is).
  const root = resolve(import.meta.dirname, '../../..');
  let podSizes: number[];
  let sharedSizes: number[];
  let timeoutMs: number;
  let controller: string[];
  const node = ((values.node as string | undefined) ?? 'real') as Node;
  if (node !== 'real' && node !== 'runner') {
    console.error(`bench:agents: --node is real or runner, got '${node}'`);
    return 2;
  }
  try {
    controller = controllerFlags((values.controller as string | undefined) ?? CONTROLLER_DEFAULT);
    podSizes = sizes(values.pods as string | undefined, [10, 25, 50]);
    sharedSizes = sizes(values.shared as string | undefined, [50, 200, 1000]);
    timeoutMs = parseDuration((values.timeout as string | undefined) ?? '15m');
  } catch (err) {
    console.error(`bench:agents: ${(err as Error).message}`);
    return 2;
  }
  if (process.getuid?.() !== 0) {
    console.error('bench:agents: needs root (the stacks run pods in network namespaces)');
    return 2;
  }
  if (!existsSync(join(root, 'dist/apps/shared-agent/main.js'))) {
    console.error('bench:agents: the stacks run dist/apps: npm run build first');
    return 2;
  }
  const base = mkdtempSync(join(tmpdir(), 'bench-agents-'));
  const loadBefore = loadavg()[0]!;
  const availableMiB = memAvailableMiB();
  const results = [
    ...(await runMode(root, 'pods', node, podSizes, timeoutMs, base, controller)),
    ...(await runMode(root, 'shared', node, sharedSizes, timeoutMs, base, controller)),
  ];
  const memoryOf =
    node === 'real' ? "the working set of the agents' pods' memory cgroups" : "the agents' processes' RSS";
  const settings = `controller ${controller.join(' ')}; ${node === 'real' ? 'real node' : 'pod runner'}, memory: ${memoryOf}`;
  const machine = `${cpus().length} vCPU (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`;
  const fit = podsFit(results, availableMiB);
  console.log(
    `${table(results)}\n${fit ? `${fit}\n` : ''}${machine}; patch rate ${PATCH_RATE} and ${settings} on both stacks`,
  );
  const out = (values.out as string | undefined) ?? join(root, 'bench/.work/agents.json');
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ at: new Date().toISOString(), machine, settings, availableMiB, fit, results }, null, 2)}\n`,
  );
  return 0;
}
