// The shared agent on a real node (`npm run argo -- up --agent shared --node real`): manifests/shared-agent's
// Deployment as real pods, installed as docs/shared-agent.md tells an admin, with kubectl alone: what `kubectl
// apply -k` applies, the replicas by `kubectl scale`, the settings by `kubectl set env` (a change rolls it out), then the
// rollout. Reconfigured the same way afterwards.
import {
  applyRendered,
  leftOutText,
  rendered,
  resolvedEnv,
  SHARED_AGENT,
  usablePlugins,
  type SharedAgentsOptions,
} from './shared-agents.js';
import { kubeClient, kubectl, kubectlAsync, writeState, type StackState } from './stack.js';

export const SHARED_AGENT_NAMESPACE = 'argo';
export const SHARED_AGENT_DEPLOYMENT = `deployment/${SHARED_AGENT}`;
const NS = ['-n', SHARED_AGENT_NAMESPACE];

/** Waits for the Deployment's rollout (every replica ready by its probe). */
export function sharedAgentRolledOut(state: StackState): Promise<string> {
  return kubectlAsync(state, [...NS, 'rollout', 'status', SHARED_AGENT_DEPLOYMENT, '--timeout=300s']);
}

/** `kubectl set env` on the Deployment (a change rolls it out), then waits for the rollout. */
export async function setSharedAgentEnv(state: StackState, env: Record<string, string>): Promise<void> {
  const pairs = Object.entries(env).map(([name, value]) => `${name}=${value}`);
  if (pairs.length) kubectl(state, [...NS, 'set', 'env', SHARED_AGENT_DEPLOYMENT, ...pairs]);
  await sharedAgentRolledOut(state);
}

/**
 * Installs the Deployment with `options.replicas` replicas and the controller's patch rate. PLUGINS lists the
 * collection's plugins whose settings are in Argo's namespace already (`none` at first): a plugin without them
 * would stop the pod at start, as the docs say. The controller was started with disableAgentPodCreation.
 */
export async function installSharedAgentDeployment(
  state: StackState,
  options: SharedAgentsOptions,
): Promise<void> {
  const manifests = rendered(state);
  applyRendered(state, manifests.docs);
  const plugins = usablePlugins(await resolvedEnv(kubeClient(state), manifests, `${SHARED_AGENT}-0`, {}));
  options.log(`shared agent pods: PLUGINS=${plugins.keys}${leftOutText(plugins)}`);
  kubectl(state, [...NS, 'scale', SHARED_AGENT_DEPLOYMENT, `--replicas=${options.replicas}`]);
  await setSharedAgentEnv(state, {
    PLUGINS: plugins.keys,
    ARGO_AGENT_PATCH_RATE: options.patchRate,
    ...options.env,
  });
  state.sharedAgent = { replicas: options.replicas, patchRate: options.patchRate, ports: [], pods: true };
  writeState(state);
}
