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
export const cloudRunVariables = (Base: EnvClass) => {
  class CloudRunVariables extends Base {
    @IsOptional()
    @IsString()
    CLOUD_RUN_PROJECT?: string;

    @IsOptional()
    @IsString()
    CLOUD_RUN_REGION?: string;

    @Secret()
    @IsOptional()
    @IsString()
    CLOUD_RUN_CREDENTIALS?: string;

    @IsOptional()
    @IsString()
    CLOUD_RUN_URL?: string;
  }
  return CloudRunVariables;
};

export type CloudRunConnection = GoogleProjectConnection;

export const CLOUD_RUN_FAMILY: UpstreamFamily = {
  prefix: 'CLOUD_RUN',
  settings: ['PROJECT', 'REGION', 'CREDENTIALS', 'URL'],
};

export function readCloudRun(source: EnvSource): SettingsRead<Map<string, CloudRunConnection>> {
  return readGoogleProjects(source, CLOUD_RUN_FAMILY, 'https://run.googleapis.com');
}
