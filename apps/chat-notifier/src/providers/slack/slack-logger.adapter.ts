import { LogLevel, type Logger } from '@slack/web-api';
import type { PluginLogger } from '@app/plugin-kit';

/** Routes @slack/web-api's own log lines into the plugin's JSON log (where secrets are masked). */
export class SlackLoggerAdapter implements Logger {
  constructor(private readonly logger: PluginLogger) {}

  debug(...msg: unknown[]): void {
    this.logger.debug(text(msg));
  }
  info(...msg: unknown[]): void {
    this.logger.debug(text(msg));
  }
  warn(...msg: unknown[]): void {
    this.logger.warn(text(msg));
  }
  error(...msg: unknown[]): void {
    this.logger.error(text(msg));
  }
  setLevel(): void {
    // the plugin's LOG_LEVEL decides
  }
  getLevel(): LogLevel {
    return LogLevel.DEBUG;
  }
  setName(): void {
    // lines carry component: slack-web-api instead
  }
}

function text(parts: unknown[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
}
