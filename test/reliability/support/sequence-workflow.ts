import { ARGO_RPC_TIMING } from '@app/argo-agent';
import { runWorkflow, type RunOptions, type WorkflowResult, type WorkflowShape } from '@app/local-agent';
import type { PluginRun } from './plugin-run.js';

/**
 * `count` plugin nodes in one step (withSequence), each a distinct execution: the item is an input parameter
 * of the plugin template, and input parameters are part of the execution key (as they are of Argo's node).
 */
export function sequenceWorkflow(
  key: string,
  config: unknown,
  count: number,
  name = 'reliability',
): WorkflowShape {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: `${name}-` },
    spec: {
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [
            [
              {
                name: 'node',
                template: 'plugin',
                arguments: { parameters: [{ name: 'seq', value: '{{item}}' }] },
                withSequence: { count: String(count) },
              },
            ],
          ],
        },
        { name: 'plugin', inputs: { parameters: [{ name: 'seq' }] }, plugin: { [key]: config } },
      ],
    },
  } as WorkflowShape;
}

export interface SequenceOutcome {
  result: WorkflowResult;
  nodes: number;
  /** Final phase → number of plugin nodes. */
  phases: Record<string, number>;
  /** template.execute calls made by the agent (attempts included). */
  calls: number;
  ms: number;
}

/** Runs `count` nodes of the run's plugin through the local agent (16 workers, Argo's RPC rules). */
export async function runSequence(
  run: PluginRun,
  count: number,
  options: Partial<RunOptions> & { name?: string } = {},
): Promise<SequenceOutcome> {
  const started = performance.now();
  const seen = { finished: 0, requeues: 0 };
  // RELIABILITY_PROGRESS=1 prints where a long run is every 10 s (soak runs, or a run that seems stuck).
  const progress =
    process.env.RELIABILITY_PROGRESS === '1'
      ? setInterval(() => {
          let rss = 'gone';
          try {
            rss = `${run.memory().rssMb.toFixed(0)} MB`;
          } catch {
            // the process is not there (crashed or being restarted)
          }
          process.stderr.write(
            `${run.target.name}: ${((performance.now() - started) / 1000).toFixed(0)} s, ${seen.finished}/${count} finished, ` +
              `${seen.requeues} requeues, RSS ${rss}, crashes: ${run.crashes.join('\n') || 'none'}\n`,
          );
        }, 10_000)
      : undefined;
  let result: WorkflowResult;
  try {
    result = await runWorkflow(sequenceWorkflow(run.target.key, run.target.config, count, options.name), {
      plugins: [run.agentPlugin],
      timeScale: 0.01,
      // Requeues are scaled, not the agent's 1-2-4-8 s connection backoff: its 15 s of retries are what carry
      // a node across a sidecar restart, as in a pod.
      rpc: { backoffMs: ARGO_RPC_TIMING.backoffMs },
      workers: 16,
      // A safety net, so a plugin that died does not keep the agent retrying every node for the rest of the hour.
      deadlineMs: 5 * 60_000,
      ...options,
      onEvent: (event) => {
        if (event.node.type === 'Plugin' && event.kind === 'finished') seen.finished++;
        if (event.kind === 'requeue') seen.requeues++;
        options.onEvent?.(event);
      },
    });
  } finally {
    clearInterval(progress);
  }
  const nodes = result.nodes.filter((n) => n.type === 'Plugin');
  const phases: Record<string, number> = {};
  for (const n of nodes) phases[n.phase] = (phases[n.phase] ?? 0) + 1;
  return {
    result,
    nodes: nodes.length,
    phases,
    calls: Object.values(result.rpcCalls).reduce((a, b) => a + b, 0),
    ms: Math.round(performance.now() - started),
  };
}

/** The distinct messages of the nodes that did not succeed (for failure reports). */
export function failures(outcome: SequenceOutcome, limit = 5): string[] {
  const seen = new Map<string, number>();
  for (const n of outcome.result.nodes)
    if (n.type === 'Plugin' && n.phase !== 'Succeeded') {
      const m = `${n.phase}: ${n.message ?? ''}`;
      seen.set(m, (seen.get(m) ?? 0) + 1);
    }
  return [...seen].slice(0, limit).map(([m, k]) => `${k}× ${m}`);
}
