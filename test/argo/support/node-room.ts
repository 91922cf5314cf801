// How many agent pods the real node fits at a time: its allocatable CPU and memory, less the requests of the
// pods it runs already, shared by the workflows a suite submits side by side. Each workflow holds its agent
// pod's requests from its submission to its end, so the scheduler never has to leave one Pending for want of
// room ("Insufficient cpu"). The pod runner counts no requests: under it, everything runs at once.
import type { ExecutorPlugin } from '@app/manifests';
import { pluginManifest } from './plugins.js';
import { parseQuantity } from '../../../tools/argo-stack/src/container-env.js';
import { kubectlAsync, type StackState } from '../../../tools/argo-stack/src/stack.js';

export interface Requests {
  /** Millicores. */
  cpu: number;
  /** Bytes. */
  memory: number;
}

/** Argo's own container in every agent pod (`main`; `init` asks the same and runs before): agent.go's requests. */
const AGENT_CONTAINER: Requests = { cpu: 10, memory: 64e6 };

/** A Kubernetes quantity: CPU in millicores (`40m`, `2`), memory in bytes (`64Mi`, `64M`, `1024Ki`). */
export function quantity(value: string | undefined, kind: 'cpu' | 'memory'): number {
  if (!value) return 0;
  const n = parseQuantity(value);
  if (!Number.isFinite(n)) throw new Error(`not a ${kind} quantity: ${value}`);
  return kind === 'cpu' ? Math.round(n * 1000) : n;
}

interface ResourceRequests {
  resources?: { requests?: { cpu?: string; memory?: string } };
}

const requestsOf = (c: ResourceRequests): Requests => ({
  cpu: quantity(c.resources?.requests?.cpu, 'cpu'),
  memory: quantity(c.resources?.requests?.memory, 'memory'),
});

const add = (a: Requests, b: Requests): Requests => ({ cpu: a.cpu + b.cpu, memory: a.memory + b.memory });

/** The requests of an agent pod holding the sidecars of these plugins. */
export function agentPodRequestsOf(plugins: ExecutorPlugin[]): Requests {
  return plugins
    .map((p) => requestsOf(p.spec.sidecar.container as ResourceRequests))
    .reduce(add, AGENT_CONTAINER);
}

/** The requests of an agent pod holding the sidecars of these apps' manifests as shipped. */
export function agentPodRequests(apps: string[]): Requests {
  return agentPodRequestsOf(apps.map(pluginManifest));
}

interface NodeView {
  status: { allocatable: { cpu: string; memory: string } };
}

interface PodView {
  spec: { nodeName?: string; containers: ResourceRequests[] };
  status: { phase: string };
}

/** Workflows admitted while their agent pods' requests fit what the node had free when the room was made. */
export class NodeRoom {
  private used: Requests = { cpu: 0, memory: 0 };
  private readonly waiting: Array<() => void> = [];

  constructor(readonly free: Requests) {}

  /** Runs `work` once `requests` fit beside the workflows running; they stay held until it ends. */
  async run<T>(requests: Requests, work: () => Promise<T>): Promise<T> {
    if (requests.cpu > this.free.cpu || requests.memory > this.free.memory)
      throw new Error(
        `an agent pod asks ${requests.cpu}m CPU and ${requests.memory} B, more than the node has free (${this.free.cpu}m, ${this.free.memory} B)`,
      );
    while (
      this.used.cpu + requests.cpu > this.free.cpu ||
      this.used.memory + requests.memory > this.free.memory
    )
      await new Promise<void>((r) => this.waiting.push(r));
    this.used = add(this.used, requests);
    try {
      return await work();
    } finally {
      this.used = add(this.used, { cpu: -requests.cpu, memory: -requests.memory });
      for (const wake of this.waiting.splice(0)) wake();
    }
  }
}

/** The real node's room (allocatable less the requests of its pods that have not ended); none under the pod runner. */
export async function nodeRoom(state: StackState): Promise<NodeRoom | undefined> {
  const node = state.realNode;
  if (!node) return undefined;
  const view = JSON.parse(await kubectlAsync(state, ['get', 'node', node.name, '-o', 'json'])) as NodeView;
  const pods = JSON.parse(await kubectlAsync(state, ['get', 'pods', '--all-namespaces', '-o', 'json'])) as {
    items: PodView[];
  };
  const taken = pods.items
    .filter((p) => (p.spec.nodeName ?? node.name) === node.name)
    .filter((p) => p.status.phase !== 'Succeeded' && p.status.phase !== 'Failed')
    .flatMap((p) => p.spec.containers.map(requestsOf))
    .reduce(add, { cpu: 0, memory: 0 });
  return new NodeRoom({
    cpu: quantity(view.status.allocatable.cpu, 'cpu') - taken.cpu,
    memory: quantity(view.status.allocatable.memory, 'memory') - taken.memory,
  });
}

/** `work` admitted by the room when there is one (the real node), at once when there is none. */
export function inRoom<T>(
  room: NodeRoom | undefined,
  requests: Requests,
  work: () => Promise<T>,
): Promise<T> {
  return room ? room.run(requests, work) : work();
}
