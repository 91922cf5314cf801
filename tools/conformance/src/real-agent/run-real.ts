// `--agent real`: the plugin under the real agent of a running Argo stack. Its ConfigMap goes into a namespace
// of the kit's (prepared with the agent's RBAC and the service-account token Secret the controller mounts),
// after the manifests given with --apply (the plugin's Secret); the kit's workflows are submitted there side by
// side, followed to their end, and judged from what the controller shows.
import type { StackState } from '../../../argo-stack/src/stack.js';
import { scoreOf, type ConformanceReport } from '../report/report.js';
import type { RuleResult } from '../rule.js';
import { SetupError } from '../run.js';
import { TOOL_NAME, VERSION } from '../version.js';
import { readPluginFile, type PluginInstall } from './plugin-file.js';
import { applyObjects, kubectl, runningStack, stackDir } from './stack.js';
import { REAL_RULES, type CheckRun } from './verdicts.js';
import { checkWorkflows, follow, submit } from './workflows.js';

export interface RealAgentOptions {
  /** plugin.yaml or the plugin's ConfigMap. */
  plugin: string;
  /** Default: the plugin's name. */
  key?: string;
  /** Reads the example body once the key is known. */
  config?: (key: string) => unknown;
  stackDir?: string;
  /** Default: conformance-<plugin name>. */
  namespace?: string;
  /** Manifests applied into the namespace first (the plugin's Secret). */
  apply: string[];
  pollTimeoutMs: number;
  skip?: string[];
  onResult?: (result: RuleResult) => void;
}

/** What a workflow namespace needs for an agent pod: the agent's rights and the token Secret it mounts. */
function namespaceObjects(): object[] {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'conformance-agent' },
      rules: [
        { apiGroups: ['argoproj.io'], resources: ['workflowtasksets'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['argoproj.io'], resources: ['workflowtasksets/status'], verbs: ['patch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'conformance-agent' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'conformance-agent' },
      subjects: [{ kind: 'ServiceAccount', name: 'default' }],
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'default.service-account-token',
        annotations: { 'kubernetes.io/service-account.name': 'default' },
      },
      type: 'kubernetes.io/service-account-token',
    },
  ];
}

async function install(
  state: StackState,
  namespace: string,
  plugin: PluginInstall,
  manifests: string[],
): Promise<void> {
  await applyObjects(state, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }]);
  await applyObjects(state, namespaceObjects(), namespace);
  for (const file of manifests) await kubectl(state, ['apply', '-n', namespace, '-f', file]);
  await applyObjects(state, [plugin.configMap], namespace);
}

export async function runUnderRealAgent(options: RealAgentOptions): Promise<ConformanceReport> {
  const started = new Date();
  const plugin = readPluginFile(options.plugin);
  const dir = stackDir(options.stackDir);
  const state = runningStack(dir);
  const key = options.key ?? plugin.name;
  const config = options.config?.(key);
  const unknown = (options.skip ?? []).filter((id) => !REAL_RULES.some((r) => r.id === id));
  if (unknown.length > 0)
    throw new SetupError(`unknown rule id(s) to skip under the real agent: ${unknown.join(', ')}`);
  const namespace = options.namespace ?? `conformance-${plugin.name}`;
  try {
    await install(state, namespace, plugin, options.apply);
  } catch (err) {
    throw new SetupError(`--agent real: installing into namespace ${namespace}: ${(err as Error).message}`);
  }
  const runs: CheckRun[] = await Promise.all(
    checkWorkflows(key, config).map(async (workflow) => {
      const name = await submit(state, namespace, workflow);
      return { workflow, end: await follow(state, namespace, name, options.pollTimeoutMs) };
    }),
  );
  const results = REAL_RULES.map((rule): RuleResult => {
    const verdict = options.skip?.includes(rule.id)
      ? { status: 'skip' as const, verdict: 'skipped with --skip', evidence: [] }
      : rule.judge(runs);
    const result = {
      id: rule.id,
      name: rule.name,
      severity: rule.severity,
      why: rule.why,
      ms: 0,
      ...verdict,
    };
    options.onResult?.(result);
    return result;
  });
  return {
    tool: TOOL_NAME,
    version: VERSION,
    target: {
      url: `argo stack ${dir}, namespace ${namespace}`,
      key,
      config: config !== undefined,
      timeScale: 1,
    },
    startedAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    results,
    score: scoreOf(results),
    notes: [
      `under the real agent the kit judges what the workflows show (kept in namespace ${namespace}: ${runs.map((r) => r.end.name).join(', ')}); the rules on the plugin's HTTP behaviour (auth, unknown methods, statuses, replies, requeues, idempotency, start and stop) run with the local agent (without --agent real)`,
    ],
  };
}
