import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsScalarMap, type Scalar } from '../../dto/validators.js';

/** `sagemakerPipelines:` — start an execution of a SageMaker pipeline. */
export class SagemakerPipelinesBlock {
  /** The pipeline's name or ARN. */
  @IsString()
  @Matches(/^(arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:pipeline\/)?[A-Za-z0-9](-*[A-Za-z0-9]){0,255}$/, {
    message: 'pipelineName must be a SageMaker pipeline name or ARN',
  })
  pipelineName!: string;

  /** The pipeline's parameters; sent as strings. */
  @IsOptional()
  @IsScalarMap()
  parameters?: Record<string, Scalar>;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9](-*[A-Za-z0-9]){0,81}$/, {
    message: 'displayName must use letters, digits and "-" (at most 82)',
  })
  displayName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(3072)
  description?: string;
}
