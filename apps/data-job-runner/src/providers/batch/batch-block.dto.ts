import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { IsScalarList, IsScalarMap, type Scalar } from '../../dto/validators.js';

const RESOURCE = /^[A-Za-z0-9_:/.-]{1,256}$/;

/** `batch:` — submit a job to an AWS Batch job queue. */
export class BatchBlock {
  /** The job queue: its name or ARN. */
  @IsString()
  @Matches(RESOURCE, { message: 'jobQueue must be a job queue name or ARN' })
  jobQueue!: string;

  /** The job definition: `name`, `name:revision` or its ARN. */
  @IsString()
  @Matches(RESOURCE, { message: 'jobDefinition must be a job definition name, name:revision or ARN' })
  jobDefinition!: string;

  /** Prefix of the job name; the plugin appends 32 characters of the execution key. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, {
    message: 'name must start with a letter or digit and use letters, digits, "_" or "-" (at most 64)',
  })
  name?: string;

  /** Substitutions for `Ref::` placeholders of the job definition; sent as strings. */
  @IsOptional()
  @IsScalarMap()
  parameters?: Record<string, Scalar>;

  /** An array job of this many children (2 to 10 000). */
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(10_000)
  arraySize?: number;

  /** The container's command instead of the job definition's. */
  @IsOptional()
  @IsScalarList()
  command?: Scalar[];

  /** Environment variables added to the container. */
  @IsOptional()
  @IsScalarMap()
  environment?: Record<string, Scalar>;

  /** Batch's own timeout of each attempt (at least 60 s). */
  @IsOptional()
  @IsInt()
  @Min(60)
  attemptDurationSeconds?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  retryAttempts?: number;

  @IsOptional()
  @IsScalarMap()
  tags?: Record<string, Scalar>;

  @IsOptional()
  @IsBoolean()
  propagateTags?: boolean;
}
