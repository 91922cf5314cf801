import { parseDuration } from '@app/contract';
import { credentialsOf, loadEnv, secretFieldsOf, type EnvSource } from '../config/env.js';
import { formerNamesOf } from '../config/former-names.js';
import { KitEnv } from '../config/kit-env.js';
import { TemplateExecutor, type LoadedPlugin } from '../execution/template-executor.js';
import type { TemplateDispatcher } from '../http/contract-server.js';
import { ExecutionLedger } from '../ledger/execution-ledger.js';
import { MemoryLedgerStore, type LedgerStore } from '../ledger/ledger-store.js';
import { createLogger, type PluginLogger } from '../logging/plugin-logger.js';
import { looksSecret, Redactor } from '../logging/redactor.js';
import { keysOf, type PluginDefinition } from '../plugin-definition.js';

export interface HostOptions {
  /** The variables this plugin may see (all of them for a single sidecar, its own share in a collection). */
  source: EnvSource;
  logDestination?: { write(line: string): unknown };
  ledgerStore?: LedgerStore;
  /** Aborted when the sidecar stops; handlers see it through ctx.signal. */
  shutdown: AbortSignal;
  /** Kit values used where `source` sets none (a collection's own defaults, e.g. a lower MAX_EXECUTIONS). */
  kitDefaults?: EnvSource;
}

/**
 * One plugin inside a sidecar: its own settings, redactor, logger, ledger and executors (one per key it
 * answers). Nothing of it is shared with another hosted plugin.
 */
export interface HostedPlugin {
  definition: PluginDefinition;
  /** The kit settings as this plugin sees them (a collection may override some per plugin). */
  kit: KitEnv;
  redactor: Redactor;
  /** The secret values this plugin knows (its env's secret fields and secret-looking variables). */
  secrets: string[];
  /** Variables its env class read under a former spelling (for the start-up warning). */
  formerNames: readonly string[];
  logger: PluginLogger;
  ledger: ExecutionLedger;
  /** key → the executor answering it. */
  executors: Map<string, TemplateDispatcher>;
  /** Whether the plugin's module has been loaded (by its first own call). */
  readonly loaded: boolean;
  /** Closes the plugin's module if it was loaded. */
  close(): Promise<void>;
}

/** Builds a hosted plugin; throws EnvValidationError on bad settings. Loads nothing of the plugin's module. */
export function hostPlugin<E extends object>(
  definition: PluginDefinition<E>,
  options: HostOptions,
): HostedPlugin {
  const { source } = options;
  const secrets = Object.entries(source).flatMap(([name, value]) =>
    looksSecret(name) && value ? [value] : [],
  );
  const kit = loadEnv(KitEnv, { ...options.kitDefaults, ...source });
  const env = definition.env ? loadEnv(definition.env, source) : undefined;
  if (definition.env && env)
    for (const field of secretFieldsOf(definition.env))
      secrets.push(String((env as Record<string, unknown>)[field] ?? ''));
  const redactor = new Redactor().add(...secrets);
  for (const { secret, user } of env ? credentialsOf(env) : [])
    if (user === undefined) redactor.add(secret);
    else redactor.addLogin(user, secret);

  const logger = createLogger({
    level: kit.LOG_LEVEL,
    redactor,
    base: { plugin: definition.name, version: process.env.EXECUTOR_PLUGINS_VERSION ?? 'dev' },
    destination: options.logDestination,
  });
  const ledger = new ExecutionLedger(
    options.ledgerStore ?? new MemoryLedgerStore({ maxEntries: kit.LEDGER_MAX_ENTRIES }),
  );

  type Runtime = LoadedPlugin & { close(): Promise<void> };
  let runtime: Promise<Runtime> | undefined;
  let loaded = false;
  const loadRuntime = (): Promise<Runtime> => {
    runtime ??= (async () => {
      const t0 = performance.now();
      // One after the other: concurrent dynamic imports of modules sharing a dependency race under Jest's ESM loader.
      const { createPluginRuntime } = await import('../nest/plugin-runtime.js');
      const pluginModule = await definition.load();
      const created = await createPluginRuntime(pluginModule, {
        logger,
        redactor,
        env: definition.env && env ? { cls: definition.env, value: env } : undefined,
        entries: definition.entries,
      });
      loaded = true;
      logger.info({ loadMs: Math.round(performance.now() - t0) }, 'plugin module loaded');
      return created;
    })().catch((err: unknown) => {
      runtime = undefined; // the next call tries again
      throw err;
    });
    return runtime;
  };

  // One executor answers the plugin's key, its aliases (it maps an alias's body into the key's shape) and its
  // entries: one bound on executions, one ledger.
  const executor = new TemplateExecutor({
    key: definition.key,
    aliases: definition.aliases,
    entries: definition.entries,
    logger,
    redactor,
    ledger,
    load: loadRuntime,
    deadlineMs: parseDuration(kit.CALL_DEADLINE),
    retry: { budget: kit.RETRY_BUDGET, baseMs: 5000, maxMs: 5 * 60_000 },
    shutdown: options.shutdown,
    maxExecutions: definition.limits?.maxExecutions ?? kit.MAX_EXECUTIONS,
    upstreamMaxBodyBytes: definition.limits?.upstreamMaxBody ?? kit.UPSTREAM_MAX_BODY,
    upstreamMaxValues: kit.UPSTREAM_MAX_VALUES,
  });
  const executors = new Map<string, TemplateDispatcher>(keysOf(definition).map((key) => [key, executor]));

  return {
    definition,
    kit,
    redactor,
    secrets,
    formerNames: formerNamesOf(env),
    logger,
    ledger,
    executors,
    get loaded() {
      return loaded;
    },
    close: async () => {
      if (runtime) await runtime.then((r) => r.close()).catch(() => undefined);
    },
  };
}

/**
 * The hosted plugins' part of a graceful stop: wait until `deadline` for their background executions, then
 * abort their shutdown signal and close their modules. Answers whether every execution finished.
 */
export async function stopHostedPlugins(
  hosted: HostedPlugin[],
  shutdownController: AbortController,
  reason: string,
  deadline: number,
): Promise<boolean> {
  const drained = (
    await Promise.all(hosted.map((h) => h.ledger.drain(Math.max(0, deadline - Date.now()))))
  ).every(Boolean);
  shutdownController.abort(new Error(reason));
  await Promise.all(hosted.map((h) => h.close()));
  return drained;
}
