import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsGoDuration, type ConfigClass } from '@app/plugin-kit';
import { providerBodyClass } from '@app/plugin-kit/providers/provider-blocks.js';
import { PROVIDERS, type ProviderBlocks } from '../providers/index.js';
import { ToBoolean } from './validators.js';

/** The fields of the `data-job:` body besides its provider block: how to wait for the run, and where. */
export class DataJobSettings {
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

/**
 * The class of the `data-job:` body: the settings above and one optional block per provider of the table
 * (`data-job: {databricks: {...}}`), each checked by its provider's class; that exactly one is given is the pick.
 */
export function dataJobConfigClass(): Promise<ConfigClass<DataJobConfig>> {
  return providerBodyClass<DataJobConfig>(DataJobSettings, PROVIDERS);
}

/** The `data-job:` body as validated: its settings and its provider block. */
export type DataJobConfig = DataJobSettings & ProviderBlocks;
