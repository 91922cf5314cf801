// The shared agent installed on a stack's real node as docs/shared-agent.md tells an admin: the plugins' Secrets
// and ConfigMaps in Argo's namespace, `kubectl apply -k manifests/shared-agent`, its own settings with `kubectl
// set env`, the rollout, then the controller switched by its ConfigMap; and switched back.
import { join } from 'node:path';
import {
  setSharedAgentEnv,
  SHARED_AGENT_NAMESPACE,
} from '../../../tools/argo-stack/src/shared-agent-pods.js';
import type { StackState } from '../../../tools/argo-stack/src/stack.js';
import { kubectl, repoRoot } from './cluster.js';
import { apply, plainSettings, settingsObjects } from './plugins.js';
import { sharedAgentContainer } from './shared-stack.js';

export { setSharedAgentEnv, SHARED_AGENT_NAMESPACE };

export const SHARED_AGENT_SELECTOR = 'app.kubernetes.io/name=shared-agent';
const KUSTOMIZATION = join(repoRoot, 'manifests/shared-agent');
const NS = ['-n', SHARED_AGENT_NAMESPACE];

/**
 * The controller's switch (`disableAgentPodCreation`), patched into its ConfigMap as the docs say. The controller
 * reads its ConfigMap as it changes: switched on, this waits until the next workflow gets no agent pod.
 */
export async function switchController(state: StackState, shared: boolean): Promise<void> {
  kubectl(state, [
    ...NS,
    'patch',
    'configmap',
    'workflow-controller-configmap',
    '--type',
    'merge',
    ...(shared
      ? ['--patch-file', join(KUSTOMIZATION, 'controller-configmap-patch.yaml')]
      : ['-p', '{"data":{"disableAgentPodCreation":"false"}}']),
  ]);
  if (shared) await new Promise((r) => setTimeout(r, 3000));
}

/**
 * Installs the agent with the plugins' settings `env` (what the Deployment reads from Secrets and ConfigMaps goes
 * there, the rest and `agentEnv` by `kubectl set env`), waits for its replicas, and switches the controller.
 */
export async function installSharedAgentPods(
  state: StackState,
  env: Record<string, string>,
  agentEnv: Record<string, string> = {},
): Promise<void> {
  const container = sharedAgentContainer(state);
  await apply(state, SHARED_AGENT_NAMESPACE, settingsObjects(container, env));
  kubectl(state, ['apply', '-k', KUSTOMIZATION]);
  await setSharedAgentEnv(state, { ...plainSettings(container, env), ...agentEnv });
  await switchController(state, true);
}

/** How to switch back: the controller first, then the agent. */
export async function uninstallSharedAgentPods(state: StackState): Promise<void> {
  await switchController(state, false);
  kubectl(state, ['delete', '--ignore-not-found', '-k', KUSTOMIZATION]);
}

/** The names of the agent's pods. */
export function sharedAgentPodNames(state: StackState): string[] {
  return kubectl(state, [
    ...NS,
    'get',
    'pods',
    '-l',
    SHARED_AGENT_SELECTOR,
    '-o',
    'jsonpath={.items[*].metadata.name}',
  ])
    .split(' ')
    .filter(Boolean);
}
