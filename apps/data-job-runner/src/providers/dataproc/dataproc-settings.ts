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
export const dataprocVariables = (Base: EnvClass) => {
  class DataprocVariables extends Base {
    @IsOptional()
    @IsString()
    DATAPROC_PROJECT?: string;

    @IsOptional()
    @IsString()
    DATAPROC_REGION?: string;

    @Secret()
    @IsOptional()
    @IsString()
    DATAPROC_CREDENTIALS?: string;

    @IsOptional()
    @IsString()
    DATAPROC_URL?: string;
  }
  return DataprocVariables;
};

export type DataprocConnection = GoogleProjectConnection;

export const DATAPROC_FAMILY: UpstreamFamily = {
  prefix: 'DATAPROC',
  settings: ['PROJECT', 'REGION', 'CREDENTIALS', 'URL'],
};

export function readDataproc(source: EnvSource): SettingsRead<Map<string, DataprocConnection>> {
  return readGoogleProjects(source, DATAPROC_FAMILY, 'https://dataproc.googleapis.com');
}
