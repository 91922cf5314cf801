import { ArrayNotEmpty, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsIdNumber, ToIdNumber } from '../../dto/validators.js';

/** `dbtCloud:` — trigger a dbt Cloud job run. */
export class DbtCloudBlock {
  @ToIdNumber()
  @IsIdNumber()
  jobId!: number;

  /** Shown in dbt Cloud as the trigger reason; the plugin appends its correlation marker (255 chars in all). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cause?: string;

  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  stepsOverride?: string[];

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  gitBranch?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  gitSha?: string;
}
