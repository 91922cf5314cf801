import { Inject, Injectable } from '@nestjs/common';
import { ENDPOINT_OPTIONS, type LogEntry, type ResolvedOptions } from '../options.js';

/** Structured log lines of the emulator (binding errors, submissions, runs). */
@Injectable()
export class EndpointLogger {
  constructor(@Inject(ENDPOINT_OPTIONS) private readonly options: ResolvedOptions) {}

  info(msg: string, fields: Record<string, unknown> = {}): void {
    this.write({ level: 'info', msg, ...fields });
  }
  warn(msg: string, fields: Record<string, unknown> = {}): void {
    this.write({ level: 'warn', msg, ...fields });
  }
  error(msg: string, fields: Record<string, unknown> = {}): void {
    this.write({ level: 'error', msg, ...fields });
  }

  private write(entry: LogEntry): void {
    this.options.log(entry);
  }
}

/** The default destination: one JSON object per line on stdout. */
export function jsonLines(entry: LogEntry): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
}
