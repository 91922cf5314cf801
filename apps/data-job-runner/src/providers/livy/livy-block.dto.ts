import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { parseDuration } from '@app/contract';
import { IsScalarList, IsScalarMap, type Scalar } from '../../dto/validators.js';

/** Livy forgets finished batches after livy.server.session.state-retain.sec (10 minutes by default). */
export const LIVY_MAX_POLL_INTERVAL_MS = 5 * 60_000;

/** `livy:` — submit a Spark batch. */
export class LivyBlock {
  /** The application: a jar or Python file the cluster can read (s3://, hdfs://, local:). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  file!: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  className?: string;

  @IsOptional()
  @IsScalarList()
  args?: Scalar[];

  /** Spark configuration (`spark.executor.memory: 2g`). */
  @IsOptional()
  @IsScalarMap()
  conf?: Record<string, Scalar>;

  /** Prefix of the batch name; the plugin appends part of the execution key so the name stays unique. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, {
    message: 'name must start with a letter and use letters, digits, "_", "." or "-" (at most 64)',
  })
  name?: string;

  @IsOptional()
  @IsString({ each: true })
  pyFiles?: string[];

  @IsOptional()
  @IsString({ each: true })
  jars?: string[];

  @IsOptional()
  @IsString({ each: true })
  files?: string[];

  @IsOptional()
  @IsString()
  @Matches(/^\d+[kmgt]?$/i, { message: 'driverMemory must look like 512m or 2g' })
  driverMemory?: string;

  @IsOptional()
  @IsString()
  @Matches(/^\d+[kmgt]?$/i, { message: 'executorMemory must look like 512m or 2g' })
  executorMemory?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  numExecutors?: number;

  /** A poll interval longer than Livy keeps a finished batch would never see it end. */
  static problems(_block: LivyBlock, { pollInterval }: { pollInterval: string }): string[] {
    return parseDuration(pollInterval) > LIVY_MAX_POLL_INTERVAL_MS
      ? [
          'pollInterval: must be at most 5m with livy (Livy forgets finished batches after 10 minutes by default)',
        ]
      : [];
  }
}
