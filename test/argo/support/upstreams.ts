// The upstreams of the examples under the real stack: each app's demo stand-ins (apps/<app>/demo/upstreams.ts),
// listening on HOST_ADDR where pods reach them, and for the event emitter the real argo server with a token
// made as docs/event-emitter.md says.
import { join } from 'node:path';
import { demoUpstreamsOf, setStandInHost, type DemoUpstreams } from '@app/local-agent';
import { stackCertificate, type StackState } from '../../../tools/argo-stack/src/stack.js';
import { documentedObject, kubeClient, repoRoot, type ManifestDoc } from './cluster.js';
import { apply } from './plugins.js';

/** The app whose sidecar talks to the argo server: its upstream is the stack's real server, not a stand-in. */
export const EVENT_APP = 'event-emitter';

/** Stand-ins started from now on listen on the stack's HOST_ADDR, serving TLS with the stack's certificate. */
export function standInsOnStack(state: StackState): void {
  setStandInHost(state.hostAddr, stackCertificate(state));
}

/** Starts the demo stand-ins of every app but the event emitter; answers them and their merged env. */
export async function startStandIns(
  apps: string[],
): Promise<{ env: Record<string, Record<string, string>>; close(): Promise<void> }> {
  const started: DemoUpstreams[] = [];
  const env: Record<string, Record<string, string>> = {};
  for (const app of apps.filter((a) => a !== EVENT_APP)) {
    const startDemoUpstreams = await demoUpstreamsOf(join(repoRoot, 'apps', app));
    const upstreams = await startDemoUpstreams({ plugins: [], timeScale: 1 });
    started.push(upstreams);
    env[app] = upstreams.env;
  }
  return {
    env,
    close: async () => {
      await Promise.all(started.map((u) => u.close()));
    },
  };
}

/**
 * The Role docs/event-emitter.md tells an administrator to grant the event sender's ServiceAccount (the
 * first YAML block of its Install section), read from the docs so that the suite checks what they say.
 */
export function documentedEventRole(): ManifestDoc & { rules: unknown[] } {
  const role = documentedObject('docs/event-emitter.md', '## Install') as ManifestDoc & { rules: unknown[] };
  if (role.kind !== 'Role')
    throw new Error(`docs/event-emitter.md: the Install section grants a ${role.kind}`);
  return role;
}

/**
 * The ServiceAccount `event-sender` in the namespace with the documented Role, and its token from a
 * service-account-token Secret, as the docs do it: `Bearer <token>` for the plugin's ARGO_TOKEN.
 */
export async function eventSenderToken(state: StackState, namespace: string): Promise<string> {
  const role = documentedEventRole();
  const docs = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'event-sender' } },
    { ...role, metadata: { name: role.metadata.name } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'event-sender' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role.metadata.name },
      subjects: [{ kind: 'ServiceAccount', name: 'event-sender', namespace }],
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'event-sender.service-account-token',
        annotations: { 'kubernetes.io/service-account.name': 'event-sender' },
      },
      type: 'kubernetes.io/service-account-token',
    },
  ];
  await apply(state, namespace, docs as ManifestDoc[]);
  return `Bearer ${await serviceAccountToken(state, namespace, 'event-sender.service-account-token')}`;
}

/** The token the token controller put into a service-account-token Secret (waited for). */
export async function serviceAccountToken(
  state: StackState,
  namespace: string,
  secret: string,
): Promise<string> {
  const client = kubeClient(state);
  for (let attempt = 0; attempt < 60; attempt++) {
    const found = await client.get<{ data?: { token?: string } }>(
      `/api/v1/namespaces/${namespace}/secrets/${secret}`,
    );
    if (found.data?.token) return Buffer.from(found.data.token, 'base64').toString('utf8');
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${namespace}: the token controller did not fill ${secret}`);
}

/**
 * The event emitter's sidecar env: the stack's argo server (plain HTTP), the sender's token. On the real node the
 * sidecar reaches the server as the manifests ship it, `argo-server.argo:2746` (CoreDNS and the stack's
 * argo-server Service); under the pod runner, which has no cluster DNS, by HOST_ADDR and the server's port.
 */
export async function argoServerEnv(state: StackState, namespace: string): Promise<Record<string, string>> {
  return {
    ...(!state.realNode && { ARGO_SERVER: `${state.hostAddr}:${state.ports.argoServer}` }),
    ARGO_SECURE: 'false',
    ARGO_TOKEN: await eventSenderToken(state, namespace),
  };
}

/** Each app's sidecar env in the namespace: its stand-ins', and the stack's argo server for the event emitter. */
export async function appEnv(
  state: StackState,
  namespace: string,
  standIns: { env: Record<string, Record<string, string>> },
): Promise<Record<string, Record<string, string>>> {
  return { ...standIns.env, [EVENT_APP]: await argoServerEnv(state, namespace) };
}
