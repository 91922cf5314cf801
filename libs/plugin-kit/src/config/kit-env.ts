import { IsIn, IsInt, IsOptional, IsString, Max, Min, IsNotEmpty } from 'class-validator';
import { DEFAULT_TOKEN_FILE } from '@app/contract';
import { EnvInt } from './env.js';
import { IsGoDuration } from './go-duration.validator.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/** Settings every plugin sidecar understands (all optional). */
export class KitEnv {
  /** Port to listen on; defaults to the plugin's manifest port (0 picks a free port, for tests). */
  @IsOptional()
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  /** Address to listen on. The agent calls http://localhost:<port>, so loopback is enough. */
  @IsString()
  @IsNotEmpty()
  HOST = '127.0.0.1';

  /** File holding the agent's bearer token (re-read when it changes). */
  @IsString()
  @IsNotEmpty()
  TOKEN_FILE = DEFAULT_TOKEN_FILE;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /** Longest a call may take before the kit replies Running and lets the work finish in the background. */
  @IsGoDuration({ min: '100ms', max: '29s' })
  CALL_DEADLINE = '20s';

  /** Largest request body accepted (bytes). */
  @EnvInt()
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  BODY_LIMIT = 1024 * 1024;

  /** Longest graceful shutdown waits for in-flight calls after SIGTERM. */
  @IsGoDuration({ max: '5m' })
  SHUTDOWN_TIMEOUT = '20s';

  /** Most execution keys remembered by the in-memory ledger. */
  @EnvInt()
  @IsInt()
  @Min(100)
  LEDGER_MAX_ENTRIES = 5000;

  /** Consecutive transient upstream failures tolerated per execution before the node fails. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(100)
  RETRY_BUDGET = 10;
}
