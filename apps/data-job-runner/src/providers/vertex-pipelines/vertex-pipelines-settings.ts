import {
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { readGoogleProjects, type GoogleProjectConnection } from '../google-project.js';

/** The default connection's variables (so its secret is known to the redactor); named ones are read by `read`. */
export const vertexPipelinesVariables = (Base: EnvClass) => {
  class VertexPipelinesVariables extends Base {
    @IsOptional()
    @IsString()
    VERTEX_PIPELINES_PROJECT?: string;

    @IsOptional()
    @IsString()
    VERTEX_PIPELINES_REGION?: string;

    @Secret()
    @IsOptional()
    @IsString()
    VERTEX_PIPELINES_CREDENTIALS?: string;

    @IsOptional()
    @IsString()
    VERTEX_PIPELINES_URL?: string;
  }
  return VertexPipelinesVariables;
};

export type VertexPipelinesConnection = GoogleProjectConnection;

export const VERTEX_PIPELINES_FAMILY: UpstreamFamily = {
  prefix: 'VERTEX_PIPELINES',
  settings: ['PROJECT', 'REGION', 'CREDENTIALS', 'URL'],
};

export function readVertexPipelines(source: EnvSource): SettingsRead<Map<string, VertexPipelinesConnection>> {
  return readGoogleProjects(
    source,
    VERTEX_PIPELINES_FAMILY,
    (region) => `https://${region}-aiplatform.googleapis.com`,
  );
}
