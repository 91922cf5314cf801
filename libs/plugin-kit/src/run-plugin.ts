import 'reflect-metadata';
import { parseDuration } from '@app/contract';
import { TokenGuard } from './auth/token-guard.js';
import { EnvValidationError, loadEnv, secretFieldsOf, type EnvSource } from './config/env.js';
import { KitEnv } from './config/kit-env.js';
import type { PluginHandler } from './execution/plugin-handler.js';
import { TemplateExecutor } from './execution/template-executor.js';
import { ContractServer } from './http/contract-server.js';
import { ExecutionLedger } from './ledger/execution-ledger.js';
import { MemoryLedgerStore, type LedgerStore } from './ledger/ledger-store.js';
import { createLogger, type PluginLogger } from './logging/plugin-logger.js';
import { looksSecret, Redactor } from './logging/redactor.js';
import type { PluginDefinition } from './plugin-definition.js';

export interface StartOptions {
  /** Environment to read (default process.env). */
  env?: EnvSource;
  /** Where log lines go (default stdout). */
  logDestination?: { write(line: string): unknown };
  /** Ledger storage (default in memory). */
  ledgerStore?: LedgerStore;
}

export interface RunningPlugin {
  port: number;
  url: string;
  logger: PluginLogger;
  ledger: ExecutionLedger;
  /** Graceful stop: refuse new calls (503), wait for in-flight ones (bounded), close. */
  shutdown(reason?: string): Promise<void>;
}

/** Starts a plugin sidecar; throws EnvValidationError on bad configuration. */
export async function startPlugin<E extends object>(
  definition: PluginDefinition<E>,
  options: StartOptions = {},
): Promise<RunningPlugin> {
  const started = performance.now();
  const source = options.env ?? process.env;
  const redactor = new Redactor();
  for (const [name, value] of Object.entries(source)) if (looksSecret(name)) redactor.add(value);

  const kit = loadEnv(KitEnv, source);
  const env = definition.env ? loadEnv(definition.env, source) : undefined;
  if (definition.env && env)
    for (const field of secretFieldsOf(definition.env))
      redactor.add(String((env as Record<string, unknown>)[field] ?? ''));

  const logger = createLogger({
    level: kit.LOG_LEVEL,
    redactor,
    base: { plugin: definition.name, version: process.env.EXECUTOR_PLUGINS_VERSION ?? 'dev' },
    destination: options.logDestination,
  });

  const guard = new TokenGuard({ file: kit.TOKEN_FILE, logger, redactor });
  await guard.init();

  const shutdownController = new AbortController();
  const ledger = new ExecutionLedger(
    options.ledgerStore ?? new MemoryLedgerStore({ maxEntries: kit.LEDGER_MAX_ENTRIES }),
  );
  let runtime: Promise<{ handler: PluginHandler; close(): Promise<void> }> | undefined;
  const loadRuntime = (): Promise<{ handler: PluginHandler; close(): Promise<void> }> => {
    runtime ??= (async () => {
      const t0 = performance.now();
      // One after the other: concurrent dynamic imports of modules sharing a dependency race under Jest's ESM loader.
      const { createPluginRuntime } = await import('./nest/plugin-runtime.js');
      const pluginModule = await definition.load();
      const created = await createPluginRuntime(pluginModule, {
        logger,
        redactor,
        env: definition.env && env ? { cls: definition.env, value: env } : undefined,
      });
      logger.info({ loadMs: Math.round(performance.now() - t0) }, 'plugin module loaded');
      return created;
    })().catch((err: unknown) => {
      runtime = undefined; // the next call tries again
      throw err;
    });
    return runtime;
  };

  const executor = new TemplateExecutor({
    key: definition.key,
    aliases: definition.aliases,
    logger,
    redactor,
    ledger,
    handler: async () => (await loadRuntime()).handler,
    deadlineMs: parseDuration(kit.CALL_DEADLINE),
    retry: { budget: kit.RETRY_BUDGET, baseMs: 5000, maxMs: 5 * 60_000 },
    shutdown: shutdownController.signal,
  });
  const server = new ContractServer({ guard, dispatcher: executor, logger, bodyLimit: kit.BODY_LIMIT });
  const port = await server.listen(kit.PORT ?? definition.port, kit.HOST);
  logger.info(
    { port, host: kit.HOST, startupMs: Math.round(performance.now() - started), tokenReady: guard.ready },
    'listening',
  );

  let stopping: Promise<void> | undefined;
  const shutdown = (reason = 'shutdown'): Promise<void> => {
    stopping ??= (async () => {
      const timeoutMs = parseDuration(kit.SHUTDOWN_TIMEOUT);
      logger.info({ reason, inFlight: server.inFlight, background: ledger.inFlight }, 'draining');
      server.startDraining();
      const deadline = Date.now() + timeoutMs;
      const idle = await server.idle(timeoutMs);
      const drained = await ledger.drain(Math.max(0, deadline - Date.now()));
      shutdownController.abort(new Error(reason));
      server.close();
      if (runtime) await runtime.then((r) => r.close()).catch(() => undefined);
      logger.info({ clean: idle && drained }, 'stopped');
      logger.flush();
    })();
    return stopping;
  };

  return { port, url: `http://${kit.HOST}:${port}`, logger, ledger, shutdown };
}

/**
 * The entry point of every plugin app: start, stop gracefully on SIGTERM/SIGINT (exit 0), and on bad
 * configuration print one clear line and exit 1.
 */
export async function runPlugin<E extends object>(definition: PluginDefinition<E>): Promise<void> {
  let running: RunningPlugin;
  try {
    running = await startPlugin(definition);
  } catch (err) {
    const message =
      err instanceof EnvValidationError ? err.message : `failed to start: ${(err as Error).message}`;
    process.stdout.write(
      JSON.stringify({
        level: 'error',
        time: new Date().toISOString(),
        plugin: definition.name,
        msg: message,
      }) + '\n',
    );
    process.exit(1);
  }
  const stop = (signal: string): void => {
    running.shutdown(signal).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
