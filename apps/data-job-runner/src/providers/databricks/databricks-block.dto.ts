import { Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsIdNumber, IsScalarList, IsScalarMap, ToIdNumber, type Scalar } from '../../dto/validators.js';

/** A one-time run (`runs/submit`): the task list is passed to Databricks as written. */
export class DatabricksSubmit {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  runName?: string;

  @IsArray()
  @ArrayNotEmpty()
  @IsObject({ each: true })
  tasks!: Array<Record<string, unknown>>;

  @IsOptional()
  @IsInt()
  @Min(0)
  timeoutSeconds?: number;
}

export const SUCCESS_WITH_FAILURES = ['succeeded', 'failed'] as const;

/** `databricks:` — run an existing job (`jobId` + at most one kind of parameters) or submit a one-time run. */
export class DatabricksBlock {
  @IsOptional()
  @ToIdNumber()
  @IsIdNumber()
  jobId?: number;

  /** Job-level parameters (jobs with parameters defined at job level). */
  @IsOptional()
  @IsScalarMap()
  jobParameters?: Record<string, Scalar>;

  /** Legacy notebook task parameters. */
  @IsOptional()
  @IsScalarMap()
  notebookParams?: Record<string, Scalar>;

  /** Legacy Python task parameters. */
  @IsOptional()
  @IsScalarList()
  pythonParams?: Scalar[];

  @IsOptional()
  @ValidateNested()
  @Type(() => DatabricksSubmit)
  submit?: DatabricksSubmit;

  /** TERMINATED + SUCCESS_WITH_FAILURES (all leaf tasks succeeded, some others failed): succeeded by default. */
  @IsOptional()
  @IsIn(SUCCESS_WITH_FAILURES)
  successWithFailures: (typeof SUCCESS_WITH_FAILURES)[number] = 'succeeded';

  static problems(block: DatabricksBlock): string[] {
    return databricksProblems(block);
  }
}

/** Cross-field rules class-validator cannot express: `path: problem` strings. */
export function databricksProblems(block: DatabricksBlock): string[] {
  const params = (['jobParameters', 'notebookParams', 'pythonParams'] as const).filter(
    (p) => block[p] !== undefined,
  );
  if (block.submit !== undefined) {
    if (block.jobId !== undefined) return ['databricks: set either jobId or submit, not both'];
    if (params.length > 0)
      return [`databricks.${params[0]}: not allowed with submit (parameters go into the submitted tasks)`];
    return [];
  }
  if (block.jobId === undefined)
    return ['databricks: set jobId (run an existing job) or submit (a one-time run)'];
  if (params.length > 1)
    return [
      `databricks: set at most one of jobParameters, notebookParams, pythonParams (got ${params.join(', ')})`,
    ];
  return [];
}
