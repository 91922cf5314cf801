import { parseDuration } from '@app/contract';
import { TokenGuard } from '../auth/token-guard.js';
import type { KitEnv } from '../config/kit-env.js';
import { ContractServer, type TemplateDispatcher } from '../http/contract-server.js';
import type { PluginLogger } from '../logging/plugin-logger.js';
import type { Redactor } from '../logging/redactor.js';
import { stopHostedPlugins, type HostedPlugin } from './hosted-plugin.js';
import { MAX_JSON_DEPTH } from '../json/json-cost-meter.js';

export interface ServeOptions {
  /** The front's settings: port, host, token file, body limit, connections, shutdown timeout. */
  kit: KitEnv;
  defaultPort: number;
  logger: PluginLogger;
  redactor: Redactor;
  dispatcher: TemplateDispatcher;
  hosted: HostedPlugin[];
  /** Aborted once the drain is over. */
  shutdownController: AbortController;
  started: number;
}

export interface Served {
  port: number;
  url: string;
  shutdown(reason?: string): Promise<void>;
}

/** The contract front (token guard + HTTP server) in front of the hosted plugins, with the graceful stop. */
export async function serve(options: ServeOptions): Promise<Served> {
  const { kit, logger, redactor, hosted } = options;
  const guard = new TokenGuard({ file: kit.TOKEN_FILE, logger, redactor });
  await guard.init();
  const server = new ContractServer({
    guard,
    dispatcher: options.dispatcher,
    logger,
    bodyLimits: { maxBytes: kit.BODY_LIMIT, maxValues: kit.BODY_MAX_VALUES, maxDepth: MAX_JSON_DEPTH },
    maxConnections: kit.MAX_CONNECTIONS,
  });
  const port = await server.listen(kit.PORT ?? options.defaultPort, kit.HOST);
  logger.info(
    {
      port,
      host: kit.HOST,
      startupMs: Math.round(performance.now() - options.started),
      tokenReady: guard.ready,
      ...(hosted.length > 1 && { plugins: hosted.map((h) => h.definition.key) }),
    },
    'listening',
  );

  const inBackground = (): number => hosted.reduce((n, h) => n + h.ledger.inFlight, 0);
  let stopping: Promise<void> | undefined;
  const shutdown = (reason = 'shutdown'): Promise<void> => {
    stopping ??= (async () => {
      const timeoutMs = parseDuration(kit.SHUTDOWN_TIMEOUT);
      logger.info({ reason, inFlight: server.inFlight, background: inBackground() }, 'draining');
      server.startDraining();
      const deadline = Date.now() + timeoutMs;
      const idle = await server.idle(timeoutMs);
      const drained = await stopHostedPlugins(hosted, options.shutdownController, reason, deadline);
      server.close();
      logger.info({ clean: idle && drained }, 'stopped');
      for (const h of hosted) if (h.logger !== logger) h.logger.flush();
      logger.flush();
    })();
    return stopping;
  };
  return { port, url: `http://${kit.HOST}:${port}`, shutdown };
}
