import pino, { type Logger as PinoLogger, type LevelWithSilent } from 'pino';
import type { Redactor } from './redactor.js';

export type LogFields = Record<string, unknown>;

/**
 * The kit's logger: one JSON object per line on stdout, secrets masked in the final text. An abstract class,
 * so it is also the Nest injection token (`constructor(private readonly logger: PluginLogger)`).
 */
export abstract class PluginLogger {
  abstract debug(fields: LogFields | string, msg?: string): void;
  abstract info(fields: LogFields | string, msg?: string): void;
  abstract warn(fields: LogFields | string, msg?: string): void;
  abstract error(fields: LogFields | string, msg?: string): void;
  abstract child(bindings: LogFields): PluginLogger;
  abstract flush(): void;
}

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Base fields on every line, e.g. the plugin name and version. */
  base?: LogFields;
  redactor: Redactor;
  /** Where lines go; defaults to stdout (sync, so nothing is lost on exit). */
  destination?: { write(line: string): unknown };
}

/**
 * The pino instance behind a logger, made on its first line: a collection holds one logger per hosted plugin,
 * and a plugin that is never called never writes one (each instance compiles its redaction paths and opens a
 * destination, start-up work the first reply would wait for).
 */
class LazyRoot {
  private made?: PinoLogger;
  /** The lowest level written (pino's numbers: debug 20 … error 50; silent writes nothing). */
  readonly threshold: number;

  constructor(
    level: LevelWithSilent,
    private readonly make: () => PinoLogger,
  ) {
    this.threshold = level === 'silent' ? Infinity : pino.levels.values[level];
  }

  get pino(): PinoLogger {
    return (this.made ??= this.make());
  }

  /** Flushes only a logger that exists (nothing to flush otherwise). */
  flush(): void {
    this.made?.flush?.();
  }
}

/**
 * Children are created lazily: a call makes several (workflow/template, then the execution key, then the
 * handler's), most never write a line, and pino serialises the bindings of every child it makes.
 */
class PinoPluginLogger extends PluginLogger {
  private made?: PinoLogger;

  constructor(
    private readonly root: LazyRoot,
    private readonly make?: () => PinoLogger,
  ) {
    super();
  }

  private get pino(): PinoLogger {
    return (this.made ??= this.make ? this.make() : this.root.pino);
  }

  debug(fields: LogFields | string, msg?: string): void {
    this.write('debug', fields, msg);
  }
  info(fields: LogFields | string, msg?: string): void {
    this.write('info', fields, msg);
  }
  warn(fields: LogFields | string, msg?: string): void {
    this.write('warn', fields, msg);
  }
  error(fields: LogFields | string, msg?: string): void {
    this.write('error', fields, msg);
  }
  child(bindings: LogFields): PluginLogger {
    return new PinoPluginLogger(this.root, () => this.pino.child(bindings));
  }
  flush(): void {
    this.root.flush?.();
  }

  private write(level: 'debug' | 'info' | 'warn' | 'error', fields: LogFields | string, msg?: string): void {
    if (pino.levels.values[level] < this.root.threshold) return;
    if (typeof fields === 'string') this.pino[level](fields);
    else this.pino[level](fields, msg);
  }
}

export function createLogger(options: LoggerOptions): PluginLogger {
  const level = options.level ?? 'info';
  return new PinoPluginLogger(new LazyRoot(level, () => makePino(level, options)));
}

function makePino(level: LevelWithSilent, options: LoggerOptions): PinoLogger {
  const { redactor } = options;
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level,
      base: options.base ?? null,
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      // Belt and braces: structural redaction of headers, value redaction of every known secret below.
      redact: {
        paths: ['authorization', 'headers.authorization', 'req.headers.authorization', '*.authorization'],
        censor: '[REDACTED]',
      },
      hooks: { streamWrite: (line) => redactor.redact(line) },
      serializers: { err: pino.stdSerializers.err },
    },
    destination as pino.DestinationStream,
  );
}

/** A logger that keeps lines in memory (tests) while still applying redaction. */
export function createMemoryLogger(
  redactor: Redactor,
  level: LevelWithSilent = 'debug',
): { logger: PluginLogger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    level,
    redactor,
    destination: { write: (line: string) => lines.push(line) },
  });
  return { logger, lines };
}
