// What one size of the agents benchmark measures on a stack: when each task appears in its WorkflowTaskSet and
// when its result reaches the TaskSet's status (both as a watch of the API server sees them), when each
// workflow ends, and the agents' memory sampled every second: on a real node the working set of their pods'
// memory cgroups, under the pod runner the summed RSS of their processes (and their sidecars').
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeClient } from '@app/argo-agent';
import { isFinalPhase, isWorkflowDone } from '@app/contract';

interface TaskSet {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec?: { tasks?: Record<string, unknown> };
  status?: { nodes?: Record<string, { phase?: string }> };
}

interface Workflow {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  status?: {
    phase?: string;
    message?: string;
    nodes?: Record<string, { type?: string; phase?: string; message?: string }>;
  };
}

/** Task and result times per TaskSet (= workflow), from a watch of the namespace's WorkflowTaskSets. */
export class TaskSetTimes {
  readonly appeared = new Map<string, Map<string, number>>();
  readonly answered = new Map<string, Map<string, number>>();

  constructor(client: KubeClient, namespace: string, signal: AbortSignal) {
    void client.watch<TaskSet>(
      `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/workflowtasksets`,
      (event) => {
        if (event.type === 'DELETED') return;
        const now = Date.now();
        const name = event.object.metadata.name;
        const appeared = this.appeared.get(name) ?? new Map<string, number>();
        const answered = this.answered.get(name) ?? new Map<string, number>();
        this.appeared.set(name, appeared);
        this.answered.set(name, answered);
        for (const id of Object.keys(event.object.spec?.tasks ?? {}))
          if (!appeared.has(id)) appeared.set(id, now);
        for (const [id, node] of Object.entries(event.object.status?.nodes ?? {}))
          if (isFinalPhase(node.phase) && !answered.has(id)) answered.set(id, now);
      },
      signal,
    );
  }

  /** Task → result (ms) of every answered task. */
  taskLatencies(): number[] {
    const out: number[] = [];
    for (const [name, answered] of this.answered)
      for (const [id, at] of answered) {
        const from = this.appeared.get(name)?.get(id);
        if (from !== undefined) out.push(at - from);
      }
    return out;
  }

  /** Per workflow: its first task appearing → its first result (ms). */
  firstResultLatencies(): number[] {
    const out: number[] = [];
    for (const [name, answered] of this.answered) {
      if (answered.size === 0) continue;
      const first = Math.min(...this.appeared.get(name)!.values());
      out.push(Math.min(...answered.values()) - first);
    }
    return out;
  }
}

/** Workflow phases of a namespace, from a watch. */
export class WorkflowPhases {
  readonly phases = new Map<string, string>();
  readonly endedAt = new Map<string, number>();
  /** Why a workflow did not succeed: its message, or its first failed node's. */
  readonly why = new Map<string, string>();

  constructor(client: KubeClient, namespace: string, signal: AbortSignal) {
    void client.watch<Workflow>(
      `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/workflows`,
      (event) => {
        if (event.type === 'DELETED') return;
        const { name } = event.object.metadata;
        const phase = event.object.status?.phase ?? 'Pending';
        this.phases.set(name, phase);
        if (isWorkflowDone(phase) && !this.endedAt.has(name)) this.endedAt.set(name, Date.now());
        if (phase === 'Failed' || phase === 'Error') {
          const node = Object.values(event.object.status?.nodes ?? {}).find(
            (n) =>
              (n.type === 'Plugin' || n.type === 'HTTP') && (n.phase === 'Failed' || n.phase === 'Error'),
          );
          this.why.set(name, node?.message ?? event.object.status?.message ?? phase);
        }
      },
      signal,
    );
  }

  count(phase: string, names: readonly string[]): number {
    return names.filter((n) => this.phases.get(n) === phase).length;
  }

  /** The distinct reasons of the workflows that did not succeed, with how many each. */
  failures(names: readonly string[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const n of names) {
      const why = this.why.get(n);
      if (why) out[why] = (out[why] ?? 0) + 1;
    }
    return out;
  }

  ended(names: readonly string[]): number {
    return names.filter((n) => this.endedAt.has(n)).length;
  }
}

function rssKiB(pid: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function pids(): string[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d));
}

/** Processes whose HOSTNAME is one of `hosts` (the pod runner sets each container's HOSTNAME to its pod's name). */
export function podProcesses(hosts: ReadonlySet<string>): string[] {
  if (hosts.size === 0) return [];
  return pids().filter((pid) => {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'latin1');
      const host = /(?:^|\0)HOSTNAME=([^\0]*)/.exec(env)?.[1];
      return host !== undefined && hosts.has(host);
    } catch {
      return false;
    }
  });
}

/** Processes in the process groups of `leaders` (a stack process and its children). */
export function groupProcesses(leaders: readonly number[]): string[] {
  const groups = new Set(leaders.map(String));
  return pids().filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return groups.has(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]!);
    } catch {
      return false;
    }
  });
}

/** The memory cgroup of a pod under the node's kubepods (`pod<uid>`, in its QoS class's folder or not). */
function podCgroup(kubepods: string, uid: string): string | undefined {
  return ['', 'burstable', 'besteffort']
    .map((qos) => join(kubepods, qos, `pod${uid}`))
    .find((dir) => existsSync(dir));
}

/** The working set of a memory cgroup as the kubelet reports it (memory.usage_in_bytes less total_inactive_file), KiB. */
function workingSetKiB(dir: string): number {
  try {
    const usage = Number(readFileSync(join(dir, 'memory.usage_in_bytes'), 'utf8'));
    const inactive = Number(
      /^total_inactive_file (\d+)$/m.exec(readFileSync(join(dir, 'memory.stat'), 'utf8'))?.[1] ?? 0,
    );
    return Math.max(0, usage - inactive) / 1024;
  } catch {
    return 0; // the pod is gone
  }
}

/** What a sample sums: the agents' memory in KiB, and how many processes or pods it was taken from. */
export interface MemorySample {
  kib: number;
  count: number;
}

export const processesRss = (processes: () => string[]) => (): MemorySample => {
  const list = processes();
  return { kib: list.reduce((s, pid) => s + rssKiB(pid), 0), count: list.length };
};

/** The pods' summed working set; counted are the pods that have a cgroup (a Pending pod has none yet). */
export const podsWorkingSet = (kubepods: string, uids: () => string[]) => (): MemorySample => {
  const dirs = uids()
    .map((uid) => podCgroup(kubepods, uid))
    .filter((dir): dir is string => dir !== undefined);
  return { kib: dirs.reduce((s, dir) => s + workingSetKiB(dir), 0), count: dirs.length };
};

/** Samples `measure` every second; `peakKiB`, and the most processes (or pods) seen at once. */
export class MemorySampler {
  peakKiB = 0;
  peakProcesses = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly measure: () => MemorySample) {
    this.timer = setInterval(() => this.sample(), 1000);
  }

  sample(): void {
    const { kib, count } = this.measure();
    this.peakKiB = Math.max(this.peakKiB, kib);
    this.peakProcesses = Math.max(this.peakProcesses, count);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}
