// The suite's second stack: disableAgentPodCreation and the shared agent (up --agent shared), set up the way
// manifests/shared-agent's Deployment reads the plugins' settings.
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  restartSharedAgents,
  rolloutSharedAgents,
  sharedAgentProcesses,
} from '../../../tools/argo-stack/src/shared-agents.js';
import { readState, type StackState } from '../../../tools/argo-stack/src/stack.js';
import { kubeClient, kubectl, repoRoot } from './cluster.js';
import { apply, plainSettings, settingsObjects, type SidecarContainer } from './plugins.js';

export function sharedStack(): StackState {
  const state = readState(process.env.ARGO_SHARED_STACK_DIR ?? '');
  if (!state?.sharedAgent)
    throw new Error(
      `no Argo stack with the shared agent in ${process.env.ARGO_SHARED_STACK_DIR}: run through npm run test:argo`,
    );
  return state;
}

/** The container of manifests/shared-agent's Deployment, as kustomize renders it. */
export function sharedAgentContainer(state: StackState): SidecarContainer {
  const docs = parseAllDocuments(kubectl(state, ['kustomize', join(repoRoot, 'manifests/shared-agent')])).map(
    (d) =>
      d.toJS() as {
        kind: string;
        spec?: { template?: { spec?: { containers?: SidecarContainer[] } } };
      },
  );
  const container = docs.find((d) => d.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0];
  if (!container) throw new Error('manifests/shared-agent renders no Deployment container');
  return container;
}

/**
 * The plugins' settings where the shared agent's Deployment reads them (Secrets and ConfigMaps of namespace
 * argo), filled from `env`, and the rest of `env` in plain (as installPlugin sets a sidecar's); then the
 * replicas restart to read them, as a rollout would.
 */
export async function configureSharedAgent(
  state: StackState,
  env: Record<string, string>,
  agentEnv: Record<string, string> = {},
): Promise<void> {
  const container = sharedAgentContainer(state);
  await apply(state, 'argo', settingsObjects(container, env));
  await restartSharedAgents(state, () => undefined, { ...plainSettings(container, env), ...agentEnv });
  await shardsSettled(state);
}

/**
 * A rollout of the replicas configured by `configureSharedAgent` with the same `env` and `agentEnv` (new pods
 * replace the old ones one by one, as `kubectl rollout restart` does); answers once the shards have settled.
 */
export async function rolloutSharedAgent(
  state: StackState,
  env: Record<string, string>,
  agentEnv: Record<string, string> = {},
): Promise<void> {
  const plain = plainSettings(sharedAgentContainer(state), env);
  await rolloutSharedAgents(state, () => undefined, { ...plain, ...agentEnv });
  await shardsSettled(state);
}

/**
 * Waits until the replicas share the shard Leases evenly (each holds its share, none is free): replicas that
 * start one after the other hand shards over for a few seconds, and a suite comparing the agents' replies wants
 * them settled (the handover itself is the kill test's).
 */
export async function shardsSettled(state: StackState, timeoutMs = 120_000): Promise<void> {
  const replicas = sharedAgentProcesses(state).length;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const holders = new Map<string, number>();
    const shards = await shardLeases(state);
    for (const lease of shards) {
      const holder = lease.spec?.holderIdentity ?? '';
      holders.set(holder, (holders.get(holder) ?? 0) + 1);
    }
    const counts = [...holders.values()];
    if (
      shards.length > 0 &&
      !holders.has('') &&
      holders.size === replicas &&
      Math.max(...counts) - Math.min(...counts) <= 1
    )
      return;
    if (Date.now() > deadline)
      throw new Error(
        `the shard Leases did not settle in ${timeoutMs / 1000} s: ${JSON.stringify([...holders])}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}

export interface ShardLease {
  metadata: { name: string };
  spec?: { holderIdentity?: string };
}

/** The shard Leases of the Deployment's replicas (prefix `shared-agent`, namespace argo); another agent's are left out. */
export async function shardLeases(state: StackState, prefix = 'shared-agent'): Promise<ShardLease[]> {
  const { items } = await kubeClient(state).get<{ items: ShardLease[] }>(
    '/apis/coordination.k8s.io/v1/namespaces/argo/leases',
  );
  return items.filter((l) => l.metadata.name.startsWith(`${prefix}-shard-`));
}

/** Agent pods of the stack (Argo labels them component=agent). */
export function agentPods(state: StackState): string[] {
  const out = kubectl(state, [
    'get',
    'pods',
    '--all-namespaces',
    '-l',
    'workflows.argoproj.io/component=agent',
    '-o',
    'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{"\\n"}{end}',
  ]);
  return out.split('\n').filter(Boolean);
}
