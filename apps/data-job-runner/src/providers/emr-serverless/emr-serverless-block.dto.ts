import { Type } from 'class-transformer';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsPlainObject, IsScalarList, IsScalarMap, type Scalar } from '../../dto/validators.js';

export class SparkSubmitDriver {
  /** The application: an S3 URI of a jar or Python file. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  entryPoint!: string;

  @IsOptional()
  @IsScalarList()
  entryPointArguments?: Scalar[];

  /** `--conf spark.executor.cores=4 --class com.example.Etl`. */
  @IsOptional()
  @IsString()
  @MaxLength(102_400)
  sparkSubmitParameters?: string;
}

export class HiveDriver {
  /** The S3 URI of the query file. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(10_280)
  query!: string;

  @IsOptional()
  @IsString()
  initQueryFile?: string;

  @IsOptional()
  @IsString()
  parameters?: string;
}

/** `emrServerless:` — start a job run on an EMR Serverless application. */
export class EmrServerlessBlock {
  @IsString()
  @Matches(/^[0-9a-z]{1,64}$/, {
    message: 'applicationId must be an EMR Serverless application id (lower-case letters and digits)',
  })
  applicationId!: string;

  @IsString()
  @Matches(/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/, {
    message: 'executionRoleArn must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)',
  })
  executionRoleArn!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => SparkSubmitDriver)
  sparkSubmit?: SparkSubmitDriver;

  @IsOptional()
  @ValidateNested()
  @Type(() => HiveDriver)
  hive?: HiveDriver;

  /** Passed as is (`applicationConfiguration`, `monitoringConfiguration`). */
  @IsOptional()
  @IsPlainObject()
  configurationOverrides?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @Matches(/^[\w .-]{1,256}$/, {
    message: 'name must use letters, digits, spaces, "_", "." or "-" (at most 256)',
  })
  name?: string;

  @IsOptional()
  @IsScalarMap()
  tags?: Record<string, Scalar>;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  executionTimeoutMinutes?: number;

  static problems(block: EmrServerlessBlock): string[] {
    return (block.sparkSubmit === undefined) === (block.hive === undefined)
      ? ['emrServerless: exactly one of sparkSubmit and hive is required']
      : [];
  }
}
