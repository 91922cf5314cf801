import { DEFAULT_TOKEN_FILE } from '@app/contract';
import { EnvInt } from './env.js';
import { IsGoDuration, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min } from './env-rules.js';
import { DEFAULT_UPSTREAM_MAX_BODY, DEFAULT_UPSTREAM_MAX_VALUES } from '../upstream/upstream-scope.js';

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

  /**
   * Most JSON values and keys in a request body, counted while it arrives (413 beyond): what a body costs to
   * hold is its values, not its bytes (1 MiB of `[{},{},…]` is 350,000 objects, ~20 MiB of heap).
   */
  @EnvInt()
  @IsInt()
  @Min(1000)
  @Max(1_000_000)
  BODY_MAX_VALUES = 20_000;

  /** Longest graceful shutdown waits for in-flight calls after SIGTERM. */
  @IsGoDuration({ max: '5m' })
  SHUTDOWN_TIMEOUT = '20s';

  /** Most execution keys remembered by the in-memory ledger. */
  @EnvInt()
  @IsInt()
  @Min(100)
  LEDGER_MAX_ENTRIES = 5000;

  /** Largest upstream reply body read (bytes); a larger reply fails the node instead of filling the heap. */
  @EnvInt()
  @IsInt()
  @Min(64 * 1024)
  @Max(64 * 1024 * 1024)
  UPSTREAM_MAX_BODY = DEFAULT_UPSTREAM_MAX_BODY;

  /**
   * Most JSON values and keys built from one upstream reply, counted before it is parsed; a reply with more
   * fails the node (4 MiB of `[{},{},…]` would be 1.4 million objects, ~80 MiB of heap).
   */
  @EnvInt()
  @IsInt()
  @Min(10_000)
  @Max(10_000_000)
  UPSTREAM_MAX_VALUES = DEFAULT_UPSTREAM_MAX_VALUES;

  /** Most executions the plugin runs at once (including those finishing after the deadline); past it, 503. */
  @EnvInt()
  @IsInt()
  @Min(1)
  @Max(10_000)
  MAX_EXECUTIONS = 100;

  /** Most open connections to the contract front; further ones are closed at once. */
  @EnvInt()
  @IsInt()
  @Min(16)
  @Max(100_000)
  MAX_CONNECTIONS = 256;

  /** Consecutive transient upstream failures tolerated per execution before the node fails. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(100)
  RETRY_BUDGET = 10;
}
