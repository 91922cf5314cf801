import { EnvValidationError, loadEnv } from '../config/env.js';
import { formerNamesWarning, resolveFormerNames } from '../config/former-names.js';
import { KitEnv } from '../config/kit-env.js';
import type { TemplateDispatcher } from '../http/contract-server.js';
import { hostPlugin, type HostedPlugin } from '../hosting/hosted-plugin.js';
import { serve } from '../hosting/serve.js';
import { TemplateRouter } from '../hosting/template-router.js';
import { createLogger, type PluginLogger } from '../logging/plugin-logger.js';
import { looksSecret, Redactor } from '../logging/redactor.js';
import { keysOf, type PluginDefinition } from '../plugin-definition.js';
import { runSidecar, type StartOptions } from '../run-plugin.js';
import {
  ambiguousVariables,
  COLLECTION_KIT_DEFAULTS,
  CollectionEnv,
  scopedSource,
  sharedVariables,
  structuralClashes,
} from './collection-env.js';

export interface CollectionDefinition {
  /** The sidecar's name in logs, e.g. `collection`. */
  name: string;
  /** Default port: the containerPort of the collection's manifest. */
  port: number;
  /** Every plugin the collection can host. */
  plugins: PluginDefinition[];
}

export interface HostedStatus {
  key: string;
  name: string;
  /** Whether its module has been loaded (by its first own call). */
  loaded: boolean;
  maxExecutions: number;
  inFlight: number;
}

export interface RunningCollection {
  port: number;
  url: string;
  logger: PluginLogger;
  /** The enabled plugins, in the order of the definition. */
  plugins(): HostedStatus[];
  shutdown(reason?: string): Promise<void>;
}

/** Which plugins `PLUGINS` enables; every hosted plugin when it is unset. */
export function enabledPlugins(
  definition: CollectionDefinition,
  plugins: string | undefined,
): PluginDefinition[] {
  if (plugins === undefined || plugins.trim() === '') return definition.plugins;
  const wanted = plugins
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  // A plugin is enabled by any key it answers (`slack` enables the notifier as `notify` does).
  const known = new Map(definition.plugins.flatMap((p) => keysOf(p).map((k) => [k, p] as const)));
  // `PLUGINS=","` would start a sidecar that serves nothing (every call answered {}): a typo, not a choice.
  if (wanted.length === 0)
    throw new EnvValidationError([
      `PLUGINS: ${JSON.stringify(plugins)} names no plugin (this collection has ${[...known.keys()].join(', ')}; unset serves them all)`,
    ]);
  const unknown = wanted.filter((k) => !known.has(k));
  if (unknown.length > 0)
    throw new EnvValidationError([
      `PLUGINS: ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not in this collection (it has ${[...known.keys()].join(', ')})`,
    ]);
  return definition.plugins.filter((p) => keysOf(p).some((k) => wanted.includes(k)));
}

/** The enabled plugins of a collection, hosted side by side, with what a front needs to dispatch to them. */
export interface HostedCollection {
  /** The kit settings of the front (one value for the whole sidecar). */
  kit: KitEnv;
  hosted: HostedPlugin[];
  /** Masks every hosted plugin's secrets and every secret-looking variable. */
  redactor: Redactor;
  logger: PluginLogger;
  /** template.plugin.<key> → the plugin answering it; `{}` for a key none of them answers. */
  router: TemplateRouter;
  /** Aborted when the sidecar stops; the hosted plugins' handlers see it. */
  shutdownController: AbortController;
  /** Variables read under a former spelling (for the start-up warning). */
  formerNames: string[];
}

/**
 * Hosts the plugins `PLUGINS` enables, each with its own settings (its share of the environment only),
 * redactor, logger, ledger, executors and execution bound (MAX_EXECUTIONS, UPSTREAM_MAX_BODY). Loads none of
 * their modules. Throws one EnvValidationError naming every plugin and variable at fault.
 */
export function hostCollection(
  definition: CollectionDefinition,
  options: StartOptions & { logBase?: Record<string, unknown> } = {},
): HostedCollection {
  // One copy: process.env reads go through the C library each time, and scoping reads it once per plugin.
  const { source, used } = resolveFormerNames(options.env ?? { ...process.env }, definition.plugins);
  const clashes = structuralClashes(definition.plugins);
  if (clashes.length > 0) throw new Error(`plugins that cannot share a sidecar: ${clashes.join('; ')}`);

  const kit = loadEnv(KitEnv, source);
  const enabled = enabledPlugins(definition, loadEnv(CollectionEnv, source).PLUGINS);
  const shared = sharedVariables(enabled);
  const problems = ambiguousVariables(enabled, source, shared);
  const shutdownController = new AbortController();
  const hosted: HostedPlugin[] = [];
  for (const plugin of enabled) {
    try {
      hosted.push(
        hostPlugin(plugin, {
          source: scopedSource(plugin, enabled, source, shared),
          kitDefaults: COLLECTION_KIT_DEFAULTS,
          logDestination: options.logDestination,
          shutdown: shutdownController.signal,
        }),
      );
    } catch (err) {
      if (!(err instanceof EnvValidationError)) throw err;
      problems.push(...err.problems.map((p) => `${plugin.name} (${plugin.key}): ${p}`));
    }
  }
  if (problems.length > 0) throw new EnvValidationError(problems);

  const redactor = new Redactor();
  for (const plugin of hosted) redactor.absorb(plugin.redactor);
  for (const [name, value] of Object.entries(source)) if (looksSecret(name)) redactor.add(value);
  const logger = createLogger({
    level: kit.LOG_LEVEL,
    redactor,
    base: options.logBase ?? {
      plugin: definition.name,
      version: process.env.EXECUTOR_PLUGINS_VERSION ?? 'dev',
    },
    destination: options.logDestination,
  });
  const routes = new Map<string, TemplateDispatcher>();
  for (const plugin of hosted) for (const [key, executor] of plugin.executors) routes.set(key, executor);
  const formerNames = [
    ...used,
    ...hosted.flatMap((h) => h.formerNames.map((name) => `${name} (${h.definition.name})`)),
  ];
  return {
    kit,
    hosted,
    redactor,
    logger,
    router: new TemplateRouter(routes),
    shutdownController,
    formerNames,
  };
}

/**
 * Starts several plugins behind one contract front: one token guard and HTTP server in front of the hosted
 * plugins (past its bound a plugin's new executions are answered 503, the others' are not).
 * Throws one EnvValidationError naming every plugin and variable at fault.
 */
export async function startCollection(
  definition: CollectionDefinition,
  options: StartOptions = {},
): Promise<RunningCollection> {
  const started = performance.now();
  const { kit, hosted, redactor, logger, router, shutdownController, formerNames } = hostCollection(
    definition,
    options,
  );
  const served = await serve({
    kit,
    defaultPort: definition.port,
    logger,
    redactor,
    dispatcher: router,
    hosted,
    shutdownController,
    started,
  });
  if (formerNames.length > 0) logger.warn({ formerNames }, formerNamesWarning(formerNames));
  return {
    ...served,
    logger,
    plugins: () =>
      hosted.map((plugin) => ({
        key: plugin.definition.key,
        name: plugin.definition.name,
        loaded: plugin.loaded,
        maxExecutions: plugin.definition.limits?.maxExecutions ?? plugin.kit.MAX_EXECUTIONS,
        inFlight: plugin.ledger.inFlight,
      })),
  };
}

/** The entry point of a collection app. */
export function runCollection(definition: CollectionDefinition): Promise<void> {
  return runSidecar(definition.name, () => startCollection(definition));
}
