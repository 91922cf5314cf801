import { EnvValidationError, type EnvSource } from './config/env.js';
import { formerNamesWarning, resolveFormerNames } from './config/former-names.js';
import type { ExecutionLedger } from './ledger/execution-ledger.js';
import type { LedgerStore } from './ledger/ledger-store.js';
import type { PluginLogger } from './logging/plugin-logger.js';
import { hostPlugin } from './hosting/hosted-plugin.js';
import { serve } from './hosting/serve.js';
import { TemplateRouter } from './hosting/template-router.js';
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
  const shutdownController = new AbortController();
  const { source, used } = resolveFormerNames(options.env ?? { ...process.env });
  const hosted = hostPlugin(definition, {
    source,
    logDestination: options.logDestination,
    ledgerStore: options.ledgerStore,
    shutdown: shutdownController.signal,
  });
  const served = await serve({
    kit: hosted.kit,
    defaultPort: definition.port,
    logger: hosted.logger,
    redactor: hosted.redactor,
    dispatcher: new TemplateRouter(hosted.executors),
    hosted: [hosted],
    shutdownController,
    started,
  });
  const formerNames = [...used, ...hosted.formerNames];
  if (formerNames.length > 0) hosted.logger.warn({ formerNames }, formerNamesWarning(formerNames));
  return { ...served, logger: hosted.logger, ledger: hosted.ledger };
}

/** Something startable that can stop gracefully. */
export interface Stoppable {
  shutdown(reason?: string): Promise<void>;
}

/**
 * The entry point of every sidecar: start, stop gracefully on SIGTERM/SIGINT (exit 0), and on bad
 * configuration print one clear line and exit 1.
 */
export async function runSidecar(name: string, start: () => Promise<Stoppable>): Promise<void> {
  let running: Stoppable;
  try {
    running = await start();
  } catch (err) {
    const message =
      err instanceof EnvValidationError ? err.message : `failed to start: ${(err as Error).message}`;
    process.stdout.write(
      JSON.stringify({ level: 'error', time: new Date().toISOString(), plugin: name, msg: message }) + '\n',
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

/** The entry point of a single-plugin app. */
export function runPlugin<E extends object>(definition: PluginDefinition<E>): Promise<void> {
  return runSidecar(definition.name, () => startPlugin(definition));
}
