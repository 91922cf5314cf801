import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsGoDuration } from '@app/plugin-kit';
import { AirflowBlock } from '../providers/airflow/airflow-block.dto.js';
import { DatabricksBlock } from '../providers/databricks/databricks-block.dto.js';
import { DbtCloudBlock } from '../providers/dbt-cloud/dbt-cloud-block.dto.js';
import { LivyBlock } from '../providers/livy/livy-block.dto.js';
import { BatchBlock } from '../providers/batch/batch-block.dto.js';
import { EmrServerlessBlock } from '../providers/emr-serverless/emr-serverless-block.dto.js';
import { GlueBlock } from '../providers/glue/glue-block.dto.js';
import { SagemakerPipelinesBlock } from '../providers/sagemaker-pipelines/sagemaker-pipelines-block.dto.js';
import { StepFunctionsBlock } from '../providers/step-functions/step-functions-block.dto.js';
import { SnowflakeBlock } from '../providers/snowflake/snowflake-block.dto.js';
import { DataprocBlock } from '../providers/dataproc/dataproc-block.dto.js';
import { CloudRunBlock } from '../providers/cloud-run/cloud-run-block.dto.js';
import { VertexPipelinesBlock } from '../providers/vertex-pipelines/vertex-pipelines-block.dto.js';
import { DataFactoryBlock } from '../providers/data-factory/data-factory-block.dto.js';
import { ToBoolean } from './validators.js';

/** The `data-job:` plugin body: exactly one provider block plus how to wait for the run. */
export class DataJobConfig {
  @IsOptional()
  @ValidateNested()
  @Type(() => DatabricksBlock)
  databricks?: DatabricksBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => AirflowBlock)
  airflow?: AirflowBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => DbtCloudBlock)
  dbtCloud?: DbtCloudBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => LivyBlock)
  livy?: LivyBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => StepFunctionsBlock)
  stepFunctions?: StepFunctionsBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => EmrServerlessBlock)
  emrServerless?: EmrServerlessBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => BatchBlock)
  batch?: BatchBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => GlueBlock)
  glue?: GlueBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => SagemakerPipelinesBlock)
  sagemakerPipelines?: SagemakerPipelinesBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => SnowflakeBlock)
  snowflake?: SnowflakeBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => DataprocBlock)
  dataproc?: DataprocBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => CloudRunBlock)
  cloudRun?: CloudRunBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => VertexPipelinesBlock)
  vertexPipelines?: VertexPipelinesBlock;

  @IsOptional()
  @ValidateNested()
  @Type(() => DataFactoryBlock)
  dataFactory?: DataFactoryBlock;

  /** Wait for the run to finish (default); false: succeed as soon as the run is started. */
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  wait = true;

  /** How often the agent calls back to poll the run. */
  @IsOptional()
  @IsGoDuration({ min: '1s', max: '1h' })
  pollInterval = '30s';

  /** Cancel the upstream run and fail when it runs longer than this (measured from its start). */
  @IsOptional()
  @IsGoDuration({ min: '1s', max: '720h' })
  timeout?: string;

  /** Separates executions that would otherwise be identical (e.g. `{{node.name}}-{{retries}}`). */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  key?: string;

  /** A named connection the admin configured (`DATABRICKS_<NAME>_HOST`, ...). */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, {
    message: 'connection must be a connection name: letters, digits, "_" or "-"',
  })
  connection?: string;
}
