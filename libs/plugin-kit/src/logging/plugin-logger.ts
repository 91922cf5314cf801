import { writeSync } from 'node:fs';
import type { Redactor } from './redactor.js';
import { jsonFields } from './json-fields.js';

export type LogFields = Record<string, unknown>;

/** The levels a line can have, with their numbers (a logger writes its own level and those above). */
export const LEVEL_VALUES = { debug: 20, info: 30, warn: 40, error: 50 } as const;
export type LogLevel = keyof typeof LEVEL_VALUES | 'silent';

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
  level?: LogLevel;
  /** Base fields on every line, e.g. the plugin name and version. */
  base?: LogFields;
  redactor: Redactor;
  /** Where lines go; defaults to stdout, written synchronously so nothing is lost on exit. */
  destination?: { write(line: string): unknown };
}

/** What every logger of one tree shares: the level, the destination and the masking. */
interface Sink {
  threshold: number;
  redactor: Redactor;
  write(line: string): void;
}

/**
 * Lines are `{"level","time",<base>,<bindings>,<fields>,"msg"}`. A child keeps its bindings as ready JSON text,
 * so making one (several per call, most never writing) costs one serialisation and nothing on the write path.
 */
class JsonLineLogger extends PluginLogger {
  constructor(
    private readonly sink: Sink,
    private readonly bindings: string,
  ) {
    super();
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
    return new JsonLineLogger(this.sink, this.bindings + jsonFields(bindings));
  }
  flush(): void {
    // Every line is written synchronously.
  }

  private write(level: keyof typeof LEVEL_VALUES, fields: LogFields | string, msg?: string): void {
    if (LEVEL_VALUES[level] < this.sink.threshold) return;
    const text = typeof fields === 'string' ? fields : msg;
    const own =
      typeof fields === 'string' ? '' : jsonFields(fields instanceof Error ? { err: fields } : fields);
    const line =
      `{"level":"${level}","time":"${new Date().toISOString()}"${this.bindings}${own}` +
      `${text === undefined ? '' : `,"msg":${JSON.stringify(String(text))}`}}\n`;
    this.sink.write(this.sink.redactor.redact(line));
  }
}

export function createLogger(options: LoggerOptions): PluginLogger {
  const level = options.level ?? 'info';
  const destination = options.destination;
  const sink: Sink = {
    threshold: level === 'silent' ? Infinity : LEVEL_VALUES[level],
    redactor: options.redactor,
    write: destination ? (line) => void destination.write(line) : writeStdout,
  };
  return new JsonLineLogger(sink, options.base ? jsonFields(options.base) : '');
}

/** Writes a whole line to fd 1, waiting out a full pipe (EAGAIN); a closed stdout drops the line. */
function writeStdout(line: string): void {
  let rest = Buffer.from(line);
  for (let waits = 0; rest.length > 0 && waits < 1000;) {
    try {
      rest = rest.subarray(writeSync(1, rest));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      waits++;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/** A logger that keeps lines in memory (tests) while still applying redaction. */
export function createMemoryLogger(
  redactor: Redactor,
  level: LogLevel = 'debug',
): { logger: PluginLogger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    level,
    redactor,
    destination: { write: (line: string) => lines.push(line) },
  });
  return { logger, lines };
}
