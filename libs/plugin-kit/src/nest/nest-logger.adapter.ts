import type { LoggerService } from '@nestjs/common';
import type { PluginLogger } from '../logging/plugin-logger.js';

/** Routes Nest's own log lines (module init, DI errors) into the kit's JSON logger. */
export class NestLoggerAdapter implements LoggerService {
  constructor(private readonly logger: PluginLogger) {}

  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, stack?: string, context?: string): void {
    this.logger.error({ context, stack }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
}
