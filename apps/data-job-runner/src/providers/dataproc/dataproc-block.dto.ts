import { IsOptional, IsString, Matches } from 'class-validator';
import { IsPlainObject } from '../../dto/validators.js';

/** `dataproc:` — a Dataproc Serverless batch. */
export class DataprocBlock {
  /**
   * The Batch resource as the API takes it: one of `pysparkBatch`, `sparkBatch`, `sparkRBatch`,
   * `sparkSqlBatch`, and `runtimeConfig`, `environmentConfig`, `labels` (passed as written).
   */
  @IsPlainObject()
  batch!: Record<string, unknown>;

  /** Prefix of the batch id; the plugin appends 24 characters of the execution key. */
  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9-]{0,33}$/, {
    message: 'name must start with a lower-case letter and use a-z, 0-9 or "-" (at most 34)',
  })
  name?: string;
}
