// Every example workflow of manifests/<app>/examples under the real agent and under the local one, each in a
// namespace of its own against stand-ins of its own per agent (the app's demo stand-ins on HOST_ADDR; the stack's
// argo server for the event emitter): under the real controller with the plugin installed as docs/install.md
// says, and through the local agent against the built plugin on this machine, both with Argo's timings. Both
// must give the same outcome: workflow phase and message, each plugin node's phase, message and outputs (with
// what each side's stand-ins mint masked), and the template.execute calls the plugin logged (within the window
// both agents were calling, for a node called on after its end).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseDuration } from '@app/contract';
import {
  loadManifestFile,
  runWorkflow,
  startPluginProcess,
  type DemoUpstreams,
  type WorkflowShape,
} from '@app/local-agent';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { reportText } from './support/report.js';
import {
  agentContainerLines,
  compareTwice,
  localOutcome,
  maskMinted,
  observeReal,
  realOutcome,
  type AgentOutcome,
  type SeenRequest,
} from './support/agent-comparison.js';
import { watchAgentPod } from './support/agent-pods.js';
import {
  create,
  prepareNamespace,
  quickPolls,
  repoRoot,
  stack,
  type ManifestDoc,
} from './support/cluster.js';
import { apply, installPlugin, pluginApps, pluginManifest } from './support/plugins.js';
import { argoServerEnv, EVENT_APP, standInsOnStack, startStandIns } from './support/upstreams.js';

/** Longer than any requeue of the examples (20 s and 30 s polls). */
const QUIET_MS = 60_000;
/** Examples running at once, each under both agents (the machine has two cores). */
const CONCURRENT = 10;

interface Example {
  app: string;
  file: string;
  workflow: WorkflowShape;
  templates: WorkflowShape[];
  namespace: string;
}

function allExamples(): Example[] {
  return pluginApps().flatMap((app) => {
    const dir = join(repoRoot, 'manifests', app, 'examples');
    return readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .flatMap((f) => {
        const loaded = loadManifestFile(join(dir, f));
        return loaded.workflows.map((workflow, i) => ({
          app,
          file: `manifests/${app}/examples/${f}`,
          workflow: quickPolls(workflow) as WorkflowShape,
          templates: loaded.templates.map((t) => quickPolls(t) as WorkflowShape),
          namespace: `cmp-${f.replace(/\.ya?ml$/, '')}-${i}`.slice(0, 63),
        }));
      });
  });
}

/** `fn` over every item, at most `size` at a time; the results in the items' order. */
async function inPool<T, R>(
  items: T[],
  size: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

/** What a plugin's `template.execute` log lines say about one workflow: a call each. */
function calls(lines: Array<Record<string, unknown>>, workflow: string): SeenRequest[] {
  return lines
    .filter((l) => l.msg === 'template.execute' && (l.workflow as { name?: string })?.name === workflow)
    .map((l) => ({
      t: Date.parse(String(l.time)),
      execute: true,
      detail: `${String(l.template)} ${String(l.phase)} (${String(l.source)}${l.requeue ? `, requeue ${String(l.requeue)}` : ''}, ${String(l.durationMs)} ms)`,
      reply: {
        node: String(l.key),
        phase: String(l.phase),
        requeueMs: typeof l.requeue === 'string' ? parseDuration(l.requeue) : undefined,
        ms: Number(l.durationMs),
      },
    }));
}

/** The event emitter's env by namespace. */
const eventEnvs = new Map<string, Promise<Record<string, string>>>();

/** The app's upstream env for one agent: its own demo stand-ins, or the stack's argo server (event emitter). */
async function upstreamEnv(
  state: StackState,
  example: Example,
  opened: Array<{ close(): Promise<void> }>,
): Promise<Record<string, string>> {
  if (example.app === EVENT_APP) {
    // Both agents' runs of the example ask at once: one event sender per namespace, not two racing applies.
    let env = eventEnvs.get(example.namespace);
    if (!env) eventEnvs.set(example.namespace, (env = argoServerEnv(state, example.namespace)));
    return env;
  }
  const standIns = await startStandIns([example.app]);
  opened.push(standIns);
  return standIns.env[example.app];
}

describe('examples: the local agent and the real agent', () => {
  const state = stack();
  const opened: Array<{ close(): Promise<void> } | DemoUpstreams> = [];
  let dir: string;

  beforeAll(() => {
    standInsOnStack(state);
    dir = mkdtempSync(join(tmpdir(), 'examples-agents-'));
  });
  afterAll(async () => {
    await Promise.all(opened.map((u) => u.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Under the real controller and agent, with the plugin installed in the example's namespace. */
  async function runReal(example: Example): Promise<AgentOutcome> {
    const env = await upstreamEnv(state, example, opened);
    await installPlugin(state, example.namespace, example.app, env);
    await apply(state, example.namespace, example.templates as unknown as ManifestDoc[]);
    const name = await create(state, example.namespace, example.workflow as unknown as ManifestDoc);
    const container = pluginManifest(example.app).spec.sidecar.container.name;
    const pod = watchAgentPod(state, example.namespace, name);
    const seen = () => calls(agentContainerLines(pod, container), name);
    const { workflow } = await observeReal(state, example.namespace, name, seen, {
      quietMs: QUIET_MS,
      timeoutMs: 10 * 60_000,
    });
    pod.stop();
    return realOutcome(workflow, seen());
  }

  /** Through the local agent against the built plugin on this machine, in the example's namespace. */
  async function runLocally(example: Example, tokenFile: string, token: string): Promise<AgentOutcome> {
    const env = await upstreamEnv(state, example, opened);
    const plugin = await startPluginProcess(
      example.app,
      join(repoRoot, 'dist/apps', example.app, 'main.js'),
      { ...env, TOKEN_FILE: tokenFile, LOG_LEVEL: 'info' },
      // Starting beside many others on a busy machine: how long it takes is not what this compares.
      { timeoutMs: 60_000 },
    );
    try {
      const result = await runWorkflow(example.workflow, {
        plugins: [{ name: pluginManifest(example.app).metadata.name, url: plugin.url, token }],
        templates: example.templates,
        namespace: example.namespace,
      });
      const cutShort = result.warnings.some((w) => /calls again after it/.test(w));
      return localOutcome(result, calls(plugin.logs, result.name), { cutShort });
    } finally {
      await plugin.stop();
    }
  }

  it('every example ends the same way under both', async () => {
    const token = 'local-agent-token-for-the-examples';
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, token);
    const started = Date.now();
    const cases = allExamples();
    const play = (batch: Example[], round: 0 | 1) =>
      inPool(batch, CONCURRENT, async (example) => {
        const namespace = round === 0 ? example.namespace : `${example.namespace}-again`.slice(0, 63);
        const run = { ...example, namespace };
        await prepareNamespace(state, namespace);
        const [local, real] = await Promise.all([runLocally(run, tokenFile, token), runReal(run)]);
        return { label: example.file, local, real };
      });
    const { results, differing, lines } = await compareTwice(cases, (c) => c.file, play, maskMinted);
    reportText([
      ...lines,
      `examples-agents: ${results.length} examples under the local and the real agent, ${differing.length} with different outcomes, in ${Math.round((Date.now() - started) / 1000)} s`,
    ]);
    expect(differing.map((r) => r.label)).toEqual([]);
  });
});
