import {
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import { baseUrl, readConnections, requireAll } from '../connection-checks.js';
import { readGoogleCredentials, type GoogleCredentials } from '../google-credentials.js';

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

export interface DataprocConnection {
  url: string;
  project: string;
  region: string;
  credentials: GoogleCredentials;
}

export const DATAPROC_FAMILY: UpstreamFamily = {
  prefix: 'DATAPROC',
  settings: ['PROJECT', 'REGION', 'CREDENTIALS', 'URL'],
};

const PROJECT = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$|^[a-z0-9.-]+:[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const REGION = /^[a-z]+-[a-z]+\d+$/;

export function readDataproc(source: EnvSource): SettingsRead<Map<string, DataprocConnection>> {
  const problems: string[] = [];
  const connections = new Map<string, DataprocConnection>();
  for (const c of readConnections(source, DATAPROC_FAMILY, problems)) {
    const { fields: f } = c;
    if (!requireAll(c, ['PROJECT', 'REGION', 'CREDENTIALS'], problems)) continue;
    if (!PROJECT.test(f.PROJECT!)) problems.push(`${c.variable('PROJECT')}: must be a project id`);
    if (!REGION.test(f.REGION!)) problems.push(`${c.variable('REGION')}: must be a region (europe-west1)`);
    const url = baseUrl(c, 'URL', f.URL ?? 'https://dataproc.googleapis.com', problems);
    const credentials = readGoogleCredentials(c.variable('CREDENTIALS'), f.CREDENTIALS!, problems);
    if (!credentials) continue;
    connections.set(c.name, { url, project: f.PROJECT!, region: f.REGION!, credentials });
  }
  return { settings: connections, problems };
}
