import { IsOptional, IsString, Matches } from 'class-validator';
import { IsPlainObject } from '../../dto/validators.js';

/** `vertexPipelines:` — a Vertex AI Pipelines run (a PipelineJob). */
export class VertexPipelinesBlock {
  /**
   * The PipelineJob as the API takes it: `templateUri` (a compiled pipeline in Artifact Registry or Cloud
   * Storage) or `pipelineSpec`, and `runtimeConfig`, `displayName`, `serviceAccount`, `network`, `labels`, ...
   * (passed as written).
   */
  @IsPlainObject()
  pipelineJob!: Record<string, unknown>;

  /** Prefix of the pipeline job id; the plugin appends 32 characters of the execution key. */
  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9-]{0,62}$/, {
    message: 'name must start with a lower-case letter and use a-z, 0-9 or "-" (at most 63)',
  })
  name?: string;
}
