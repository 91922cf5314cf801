// The reply scenarios of the local agent's fidelity suite (libs/local-agent/test/reply-scenarios.ts), each played
// by the suite's scripted plugin under the real agent (a sidecar of the agent pod, in a workflow of its own)
// and under the local agent (the same plugin server on this machine), with Argo's own timings on both sides.
// Both must give the same outcome: workflow phase and message, the node's phase, message and outputs, and the
// requests the plugin saw (within the window both agents were calling, for a node called on after its end).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { toConfigMap, type ExecutorPlugin } from '@app/manifests';
import { runWorkflowSpec, type WorkflowShape } from '@app/local-agent';
import { replyScripts } from '../../libs/local-agent/test/reply-scenarios.js';
import { reportText } from './support/report.js';
import {
  agentContainerLines,
  compareTwice,
  isExecute,
  localOutcome,
  observeReal,
  realOutcome,
  type AgentOutcome,
  type SeenRequest,
} from './support/agent-comparison.js';
import { watchAgentPod } from './support/agent-pods.js';
import {
  create,
  kubectlAsync,
  prepareNamespace,
  repoRoot,
  stack,
  type ManifestDoc,
} from './support/cluster.js';
import { agentPodRequestsOf, inRoom, nodeRoom } from './support/node-room.js';
import { apply } from './support/plugins.js';
import { SCRIPTED_KEY, startScriptedPlugin } from './support/scripted-plugin/server.js';
import { testImage } from './support/test-images.js';
import { alone, WORKFLOW_SHAPES } from './support/workflow-shapes.js';

const NAMESPACE = 'ep-replies';
const PORT = 4460;
const CONTAINER = 'scripted-executor-plugin';
/** Longer than any gap between the agent's calls (a 30 s timeout, then up to 9.6 s of backoff). */
const QUIET_MS = 45_000;

const plugin: ExecutorPlugin = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'ExecutorPlugin',
  metadata: { name: SCRIPTED_KEY },
  spec: {
    sidecar: {
      automountServiceAccountToken: false,
      container: {
        name: CONTAINER,
        image: testImage('scripted-plugin'),
        ports: [{ containerPort: PORT }],
        env: [{ name: 'PORT', value: String(PORT) }],
        resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { cpu: '500m', memory: '64Mi' } },
        // Not 65534: the image's /etc/passwd gives nobody the group nogroup, and Argo's agent writes the token file
        // mode 0440 for UID 8737 and group 0, so nobody could not read it and every call would get 403.
        securityContext: { runAsNonRoot: true, runAsUser: 65532, allowPrivilegeEscalation: false },
      },
    },
  },
};

const seen = (lines: Array<Record<string, unknown>>): SeenRequest[] =>
  lines.filter((l) => typeof l.t === 'number').map((l) => ({ t: l.t as number, execute: isExecute(l.url) }));

/** The local agent with Argo's timings against the scripted plugin on this machine. */
async function playLocally(shape: WorkflowShape, tokenFile: string, token: string): Promise<AgentOutcome> {
  const lines: Array<Record<string, unknown>> = [];
  const server = await startScriptedPlugin({
    host: '127.0.0.1',
    port: 0,
    tokenFile,
    onRequest: (r) => lines.push({ ...r }),
  });
  try {
    const result = await runWorkflowSpec(shape, {
      plugins: [{ name: SCRIPTED_KEY, url: `http://localhost:${server.port}`, token }],
    });
    // Calls a node would get after the run are none: the run is over.
    const cutShort = result.warnings.some((w) => /calls again after it/.test(w));
    return localOutcome(result, seen(lines), { cutShort });
  } finally {
    await server.close();
  }
}

async function observe(name: string): Promise<AgentOutcome> {
  const state = stack();
  const pod = watchAgentPod(state, NAMESPACE, name);
  const requests = () => seen(agentContainerLines(pod, CONTAINER));
  const { workflow: outcome } = await observeReal(state, NAMESPACE, name, requests, {
    quietMs: QUIET_MS,
    timeoutMs: 6 * 60_000,
  });
  pod.stop();
  const all = requests();
  return realOutcome(outcome, all);
}

describe('reply scenarios: the local agent and the real agent', () => {
  const state = stack();
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'reply-scenarios-'));
    await prepareNamespace(state, NAMESPACE);
    await kubectlAsync(state, [
      'apply',
      '-n',
      NAMESPACE,
      '-k',
      join(repoRoot, 'manifests/install/workflow-namespace'),
    ]);
    await apply(state, NAMESPACE, [toConfigMap(plugin) as unknown as ManifestDoc]);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('every scenario ends the same way under both', async () => {
    const token = 'local-agent-token';
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, token);
    const started = Date.now();
    const cases = [
      ...replyScripts.map(({ scenario }) => ({ label: scenario, workflow: alone(scenario) })),
      ...WORKFLOW_SHAPES.map(({ label, workflow }) => ({ label, workflow })),
    ];
    // On the real node no more at once than it fits; under the pod runner all at once.
    const room = await nodeRoom(state);
    const requests = agentPodRequestsOf([plugin]);
    const play = (batch: typeof cases) =>
      Promise.all(
        batch.map(({ label, workflow: shape }) =>
          inRoom(room, requests, async () => {
            const name = await create(state, NAMESPACE, shape as unknown as ManifestDoc);
            const [local, real] = await Promise.all([playLocally(shape, tokenFile, token), observe(name)]);
            return { label, local, real };
          }),
        ),
      );
    const { results, differing, lines } = await compareTwice(cases, (c) => c.label, play);
    reportText([
      ...lines,
      `reply-scenarios: ${results.length} reply scenarios and workflow shapes under the local and the real agent, ${differing.length} with different outcomes, in ${Math.round((Date.now() - started) / 1000)} s`,
    ]);
    expect(differing.map((r) => r.label)).toEqual([]);
  });
});
