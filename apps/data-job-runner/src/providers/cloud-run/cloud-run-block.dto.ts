import { IsOptional, Matches } from 'class-validator';
import { IsPlainObject } from '../../dto/validators.js';

/** `cloudRun:` — an execution of a Cloud Run job. */
export class CloudRunBlock {
  /** The job's name (its id in the connection's project and region). */
  @Matches(/^[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/, {
    message: 'job must be a Cloud Run job name: a lower-case letter first, a-z, 0-9 or "-" (at most 63)',
  })
  job!: string;

  /**
   * The run's `overrides` as the API takes them (`containerOverrides` with `args`, `env`, `clearArgs`;
   * `taskCount`; `timeout`), passed as written; the plugin adds the env variable `ARGO_EXECUTION_KEY`.
   */
  @IsOptional()
  @IsPlainObject()
  overrides?: Record<string, unknown>;
}
