// One way to read a workflow's agent pod, on the real node and under the pod runner: how often each container
// started, how its runs ended, its process on this machine and its log. The controller deletes the agent pod
// when the workflow ends, so on the real node the pod is watched while it exists (each running container's log
// followed with `kubectl logs -f` from the poll that first sees it running, which reads the log from its start
// and keeps what it got once the pod is gone; `--previous` after a restart that no follower saw; the container
// statuses' `restartCount` and `lastState`); the pod runner keeps
// its files (`pods/<ns>_<pod>_<uid>/logs`, `logs/pod-runner.log`) after the pod is gone.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import { kubectlAsync, type StackState } from '../../../tools/argo-stack/src/stack.js';

export interface ContainerRecord {
  /** How often the container started (1 + its restarts). */
  starts: number;
  /** The exit codes of its runs that ended, in order. */
  exitCodes: number[];
  /** The process of its current run on this machine, while it runs. */
  pid?: number;
  /** Its runs' logs, one after the other. */
  log: string;
}

export interface AgentPodWatch {
  /** What is known of the container so far (after the pod is gone: what was seen last). */
  container(name: string): ContainerRecord;
  stop(): void;
}

const NONE: ContainerRecord = { starts: 0, exitCodes: [], log: '' };

const isAgentPod = (workflow: string) => (name: string) =>
  name.startsWith(`${workflow}-`) && name.endsWith('-agent');

export function watchAgentPod(state: StackState, namespace: string, workflow: string): AgentPodWatch {
  return state.realNode
    ? new RealNodeWatch(state, namespace, workflow)
    : { container: (name) => podRunnerRecord(state, namespace, workflow, name), stop: () => undefined };
}

interface RunnerLine {
  pod?: string;
  msg: string;
  container?: string;
  pid?: number;
  exitCode?: number;
}

function podRunnerRecord(
  state: StackState,
  namespace: string,
  workflow: string,
  container: string,
): ContainerRecord {
  // Before the runner has run a pod (a suite's first workflow), neither its log nor its pods folder exists.
  const runnerLog = join(state.dir, 'logs/pod-runner.log');
  const pods = join(state.dir, 'pods');
  if (!existsSync(runnerLog) || !existsSync(pods)) return NONE;
  const lines = readFileSync(runnerLog, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as RunnerLine)
    .filter((l) => {
      const [ns, pod] = (l.pod ?? '').split('/');
      return ns === namespace && isAgentPod(workflow)(pod ?? '') && l.container === container;
    });
  const started = lines.filter((l) => l.msg === 'container started');
  const exitCodes = lines.filter((l) => l.msg === 'container exited').map((l) => l.exitCode!);
  const dir = readdirSync(pods).find((d) => {
    const [ns, pod] = d.split('_');
    return ns === namespace && isAgentPod(workflow)(pod ?? '');
  });
  let log = '';
  try {
    log = dir ? readFileSync(join(pods, dir, 'logs', `${container}.log`), 'utf8') : '';
  } catch {
    // not started yet
  }
  return {
    starts: started.length,
    exitCodes,
    pid: exitCodes.length < started.length ? started.at(-1)?.pid : undefined,
    log,
  };
}

interface ContainerStatus {
  name: string;
  containerID?: string;
  restartCount: number;
  state?: { running?: unknown; terminated?: { exitCode: number } };
  lastState?: { terminated?: { exitCode: number } };
}

interface Pod {
  metadata: { name: string };
  status?: { containerStatuses?: ContainerStatus[] };
}

/** What one poll of the pod learnt of a container: each run's log and exit code by its number (0, 1, ...). */
interface Seen {
  starts: number;
  logs: Map<number, string>;
  /** The runs whose log was read after they ended (`--previous`): not read again. */
  ended: Set<number>;
  exits: Map<number, number>;
  containerID?: string;
  running: boolean;
}

const POLL_MS = 1000;

class RealNodeWatch implements AgentPodWatch {
  private readonly seen = new Map<string, Seen>();
  private readonly pids = new Map<string, number>();
  /** `kubectl logs -f` of each container run seen running, by `<container>/<run>`. */
  private readonly followers = new Map<string, ChildProcess>();
  private stopped = false;

  constructor(
    private readonly state: StackState,
    private readonly namespace: string,
    private readonly workflow: string,
  ) {
    void this.loop();
  }

  container(name: string): ContainerRecord {
    const seen = this.seen.get(name);
    if (!seen) return NONE;
    const runs = [...seen.logs.keys()].sort((a, b) => a - b);
    return {
      starts: seen.starts,
      exitCodes: [...seen.exits.entries()].sort(([a], [b]) => a - b).map(([, code]) => code),
      pid: seen.running && seen.containerID ? this.pids.get(seen.containerID) : undefined,
      log: runs.map((run) => seen.logs.get(run)).join(''),
    };
  }

  stop(): void {
    this.stopped = true;
    for (const follower of this.followers.values()) follower.kill();
  }

  /** Follows a running container's log into `seen.logs` for its run, until the container or the pod ends. */
  private follow(pod: string, container: string, run: number, seen: Seen): void {
    const key = `${container}/${run}`;
    if (this.followers.has(key) || this.stopped) return;
    const child = spawn(
      join(this.state.bin.kube, 'kubectl'),
      ['logs', '-f', '-n', this.namespace, pod, '-c', container],
      {
        env: { ...process.env, KUBECONFIG: join(this.state.dir, 'kubeconfig') },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    this.followers.set(key, child);
    const decoder = new StringDecoder('utf8');
    let text = '';
    // A poll's one-shot read may be longer than what the follower has so far; keep the longer.
    const keep = (more: string) => {
      text += more;
      if (text.length >= (seen.logs.get(run)?.length ?? 0)) seen.logs.set(run, text);
    };
    child.stdout!.on('data', (chunk: Buffer) => keep(decoder.write(chunk)));
    child.on('close', () => {
      keep(decoder.end());
      seen.ended.add(run);
    });
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      await this.poll().catch(() => undefined);
      await new Promise((r) => setTimeout(r, POLL_MS).unref());
    }
  }

  private async poll(): Promise<void> {
    const pods = JSON.parse(
      await kubectlAsync(this.state, [
        'get',
        'pods',
        '-n',
        this.namespace,
        '-l',
        `workflows.argoproj.io/workflow=${this.workflow}`,
        '-o',
        'json',
      ]),
    ) as { items: Pod[] };
    const pod = pods.items.find((p) => isAgentPod(this.workflow)(p.metadata.name));
    if (!pod) return;
    const statuses = pod.status?.containerStatuses ?? [];
    if (statuses.some((s) => s.state?.running)) await this.readPids();
    await Promise.all(statuses.map((status) => this.record(pod.metadata.name, status)));
  }

  private async record(pod: string, status: ContainerStatus): Promise<void> {
    const seen: Seen = this.seen.get(status.name) ?? {
      starts: 0,
      logs: new Map(),
      ended: new Set(),
      exits: new Map(),
      running: false,
    };
    this.seen.set(status.name, seen);
    const run = status.restartCount;
    const started = status.state?.running !== undefined || status.state?.terminated !== undefined;
    seen.starts = Math.max(seen.starts, run + (started ? 1 : 0));
    seen.containerID = status.containerID?.replace(/^containerd:\/\//, '');
    seen.running = status.state?.running !== undefined;
    if (status.state?.terminated) seen.exits.set(run, status.state.terminated.exitCode);
    if (run > 0 && status.lastState?.terminated)
      seen.exits.set(run - 1, status.lastState.terminated.exitCode);
    const logs = (previous: boolean) =>
      kubectlAsync(this.state, [
        'logs',
        '-n',
        this.namespace,
        pod,
        '-c',
        status.name,
        ...(previous ? ['--previous'] : []),
      ]).catch(() => undefined);
    if (seen.running) this.follow(pod, status.name, run, seen);
    const following = this.followers.has(`${status.name}/${run}`);
    const [current, before] = await Promise.all([
      started && !following ? logs(false) : undefined,
      run > 0 && !seen.ended.has(run - 1) ? logs(true) : undefined,
    ]);
    if (current !== undefined) seen.logs.set(run, current);
    if (before !== undefined) {
      seen.logs.set(run - 1, before);
      seen.ended.add(run - 1);
    }
  }

  /** The containers' processes on this machine, from the node's containerd (`ctr tasks ls`: TASK PID STATUS). */
  private async readPids(): Promise<void> {
    const { stdout } = await promisify(execFile)('ctr', [
      '--address',
      this.state.realNode!.containerdSocket,
      '--namespace',
      'k8s.io',
      'tasks',
      'ls',
    ]);
    for (const [id, pid, status] of stdout
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/)))
      if (id && status === 'RUNNING') this.pids.set(id, Number(pid));
  }
}
