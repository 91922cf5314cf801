// The shared agent: one long-running, horizontally scalable process that executes the plugin and HTTP steps
// of every workflow, in place of Argo's agent pod per workflow, once the controller runs with
// `disableAgentPodCreation: "true"`.
import { hostname } from 'node:os';
import { parseDuration } from '@app/contract';
import { KubeClient, loadKubeConnection, type KubeConnection } from '@app/argo-agent';
import {
  createLogger,
  formerNamesWarning,
  hostCollection,
  KitEnv,
  loadEnv,
  looksSecret,
  Redactor,
  type CollectionDefinition,
  type EnvSource,
  type PluginLogger,
} from '@app/plugin-kit';
import { stopHostedPlugins, type HostedPlugin } from '@app/plugin-kit/hosting/hosted-plugin.js';
import { collection } from '../../collection/src/collection.definition.js';
import { AgentEnv } from './config/agent.env.js';
import { scopeText } from './leases/lease-scope.js';
import { ShardLeases } from './leases/shard-leases.js';
import { startHealthServer } from './observe/health-server.js';
import { AgentMetrics } from './observe/metrics.js';
import { InProcessPlugins } from './plugins/in-process-plugins.js';
import { PluginSet } from './plugins/plugin-set.js';
import { ResultPatcher } from './tasks/result-patcher.js';
import { COMPLETED_LABEL, INSTANCE_ID_LABEL, type TaskSetObject } from './tasksets/taskset.js';
import { StoppedTasks } from './tasksets/stopped-tasks.js';
import { TaskSetAgent } from './tasksets/taskset-agent.js';
import { TaskSetStore } from './tasksets/taskset-store.js';

export interface SharedAgentOptions {
  /** Environment to read (default process.env). */
  env?: EnvSource;
  logDestination?: { write(line: string): unknown };
  /** The API server (default: KUBECONFIG, else the pod's service account). */
  connection?: KubeConnection;
  /** The plugins hosted in process (default: the collection's). */
  plugins?: CollectionDefinition;
}

export interface RunningSharedAgent {
  /** Port of /healthz, /readyz, /metrics. */
  port: number;
  identity: string;
  agent: TaskSetAgent;
  leases: ShardLeases;
  metrics: AgentMetrics;
  logger: PluginLogger;
  /** Graceful stop: no new tasks, running ones finished (bounded), results written, Leases released. */
  shutdown(reason?: string): Promise<void>;
}

const TASKSETS = '/apis/argoproj.io/v1alpha1';

export async function startSharedAgent(options: SharedAgentOptions = {}): Promise<RunningSharedAgent> {
  const source = options.env ?? { ...process.env };
  const env = loadEnv(AgentEnv, source);
  const identity = env.AGENT_IDENTITY ?? source.HOSTNAME ?? hostname();
  const logBase = {
    component: 'shared-agent',
    identity,
    version: process.env.EXECUTOR_PLUGINS_VERSION ?? 'dev',
  };

  // The collection's plugins, in process (PLUGINS=none: only external ones).
  const inProcess =
    source.PLUGINS?.trim() === 'none'
      ? undefined
      : hostCollection(options.plugins ?? collection, {
          env: source,
          logDestination: options.logDestination,
          logBase,
        });
  const logger = inProcess?.logger ?? standaloneLogger(source, logBase, options.logDestination);
  if (inProcess?.formerNames.length)
    logger.warn({ formerNames: inProcess.formerNames }, formerNamesWarning(inProcess.formerNames));
  const hosted: HostedPlugin[] = inProcess?.hosted ?? [];

  const client = new KubeClient(options.connection ?? loadKubeConnection(source));
  const metrics = new AgentMetrics();
  const plugins = new PluginSet(
    inProcess && new InProcessPlugins(inProcess.router, inProcess.kit.BODY_LIMIT, logger),
    env.externalPlugins,
    env.AGENT_PLUGIN_TOKEN_DIR,
  );
  const store = new TaskSetStore(env.AGENT_WATCH_MEMORY);
  const patcher = new ResultPatcher(client, metrics, logger);
  const collections = env.namespaces.length
    ? env.namespaces.map((ns) => `${TASKSETS}/namespaces/${ns}/workflowtasksets`)
    : [`${TASKSETS}/workflowtasksets`];
  const selector = [
    `${COMPLETED_LABEL}!=true`,
    env.AGENT_INSTANCE_ID ? `${INSTANCE_ID_LABEL}=${env.AGENT_INSTANCE_ID}` : `!${INSTANCE_ID_LABEL}`,
  ].join(',');
  const query = `labelSelector=${encodeURIComponent(selector)}`;
  const shutdownTimeoutMs = parseDuration(env.AGENT_SHUTDOWN_TIMEOUT);
  const httpTimeout = parseDuration(env.AGENT_HTTP_DEFAULT_TIMEOUT);

  const agent: TaskSetAgent = new TaskSetAgent({
    client,
    store,
    patcher,
    plugins,
    // Called once the watches run, after `leases` exists.
    owns: (shard): boolean => leases.owns(shard),
    holds: (shard): boolean => leases.holds(shard),
    shards: env.AGENT_SHARDS,
    maxInFlight: env.AGENT_MAX_TASKS_IN_FLIGHT,
    maxPerNamespace: env.maxTasksPerNamespace,
    http: {
      maxBodyBytes: env.AGENT_HTTP_MAX_BODY,
      defaultTimeoutMs: httpTimeout > 0 ? httpTimeout : undefined,
      maxTimeoutMs: parseDuration(env.AGENT_HTTP_MAX_TIMEOUT),
      blocked: env.blockedNetworks,
      exprBudget: { maxSteps: env.AGENT_EXPR_MAX_STEPS, timeoutMs: parseDuration(env.AGENT_EXPR_TIMEOUT) },
    },
    collections,
    query,
    handoverTimeoutMs: shutdownTimeoutMs,
    resultWaitMs: parseDuration(env.AGENT_HANDOVER_RESULT_WAIT),
    logger,
    metrics,
    stopped: new StoppedTasks(client, logger, metrics),
  });
  const leases = new ShardLeases(
    client,
    {
      namespace: env.AGENT_LEASE_NAMESPACE ?? client.namespace ?? 'default',
      prefix: env.AGENT_LEASE_PREFIX,
      shards: env.AGENT_SHARDS,
      identity,
      durationMs: parseDuration(env.AGENT_LEASE_DURATION),
      scope: scopeText({
        shards: env.AGENT_SHARDS,
        instanceId: env.AGENT_INSTANCE_ID,
        namespaces: env.namespaces,
      }),
    },
    agent,
    metrics,
    logger,
  );
  metrics.gauge('shared_agent_tasks_in_flight', 'Tasks executing now.', () => agent.queue.inFlight);
  metrics.gauge('shared_agent_tasks_waiting', 'Tasks waiting for a free slot.', () => agent.queue.queued);
  metrics.gauge(
    'shared_agent_results_waiting',
    'Results waiting for the next status patch.',
    () => patcher.waiting,
  );
  metrics.gauge('shared_agent_tasksets', 'TaskSets held, and those waiting for memory.', () => [
    [{ state: 'held' }, store.size],
    [{ state: 'waiting' }, store.waiting],
  ]);
  metrics.gauge('shared_agent_watched_bytes', 'Estimated memory of the TaskSets held.', () => store.bytes);
  metrics.gauge('shared_agent_shards_held', 'Shards this replica works.', () => leases.heldShards().length);
  metrics.gauge('shared_agent_members', 'Replicas alive, as this one sees them.', () => leases.members);

  const synced = new Set<string>();
  let stopping = false;
  const health = await startHealthServer(
    {
      notReady: () =>
        stopping
          ? 'stopping'
          : synced.size < collections.length
            ? 'TaskSet watch not synced'
            : leases.notReady,
      metrics: () => metrics.registry.render(),
    },
    env.AGENT_PORT,
    env.AGENT_HOST,
  );

  const watching = new AbortController();
  for (const path of collections)
    void client.watch<TaskSetObject>(path, (event) => agent.onEvent(event), watching.signal, {
      query,
      onSynced: () => synced.add(path),
      onError: (err) => logger.warn({ err, collection: path }, 'TaskSet watch interrupted; resuming'),
    });
  patcher.start(parseDuration(env.ARGO_AGENT_PATCH_RATE));
  leases.start();
  logger.info(
    {
      port: health.port,
      namespaces: env.namespaces.length ? env.namespaces : 'all',
      plugins: plugins.names,
      ...(inProcess && { inProcess: inProcess.hosted.map((h) => h.definition.key) }),
      patchRate: env.ARGO_AGENT_PATCH_RATE,
      shards: env.AGENT_SHARDS,
      maxInFlight: env.AGENT_MAX_TASKS_IN_FLIGHT,
      maxPerNamespace: env.maxTasksPerNamespace,
    },
    'shared agent started',
  );

  let stopped: Promise<void> | undefined;
  const shutdown = (reason = 'shutdown'): Promise<void> => {
    stopped ??= (async () => {
      stopping = true;
      const deadline = Date.now() + shutdownTimeoutMs;
      logger.info({ reason, inFlight: agent.queue.inFlight }, 'draining');
      const finished = await agent.stop(shutdownTimeoutMs);
      const drained = inProcess
        ? await stopHostedPlugins(hosted, inProcess.shutdownController, reason, deadline)
        : true;
      patcher.stop();
      await patcher.flush();
      await agent.untilTaken(undefined, deadline - Date.now());
      await leases.stop();
      watching.abort();
      health.close();
      health.closeAllConnections();
      client.close();
      logger.info({ clean: finished && drained, handedBack: agent.queue.inFlight }, 'stopped');
      logger.flush();
    })();
    return stopped;
  };
  return { port: health.port, identity, agent, leases, metrics, logger, shutdown };
}

function standaloneLogger(
  source: EnvSource,
  base: Record<string, unknown>,
  destination?: { write(line: string): unknown },
): PluginLogger {
  const redactor = new Redactor();
  for (const [name, value] of Object.entries(source)) if (looksSecret(name) && value) redactor.add(value);
  return createLogger({ level: loadEnv(KitEnv, source).LOG_LEVEL, redactor, base, destination });
}
