import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { parseDuration } from '@app/contract';
import { exactlyOneProviderBlock, IsGoDuration } from '@app/plugin-kit';
import { PROVIDER_NAMES, type ProviderName } from '../providers/provider-names.js';
import { AirflowBlock } from './airflow-block.dto.js';
import { DatabricksBlock, databricksProblems } from './databricks-block.dto.js';
import { DbtCloudBlock } from './dbt-cloud-block.dto.js';
import { LivyBlock } from './livy-block.dto.js';
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

export type ProviderBlock =
  | { provider: 'databricks'; block: DatabricksBlock }
  | { provider: 'airflow'; block: AirflowBlock }
  | { provider: 'dbtCloud'; block: DbtCloudBlock }
  | { provider: 'livy'; block: LivyBlock };

/** Livy forgets finished batches after livy.server.session.state-retain.sec (10 minutes by default). */
export const LIVY_MAX_POLL_INTERVAL_MS = 5 * 60_000;

/** The provider block of a validated body, or the problems (each `path: problem`) that class-validator cannot see. */
export function selectProvider(
  config: DataJobConfig,
): { ok: true; selected: ProviderBlock } | { ok: false; problems: string[] } {
  let provider: ProviderName;
  try {
    provider = exactlyOneProviderBlock(config, PROVIDER_NAMES);
  } catch (err) {
    return { ok: false, problems: [(err as Error).message] };
  }
  const selected = { provider, block: config[provider] } as ProviderBlock;
  const problems = selected.provider === 'databricks' ? databricksProblems(selected.block) : [];
  if (selected.provider === 'livy' && parseDuration(config.pollInterval) > LIVY_MAX_POLL_INTERVAL_MS) {
    problems.push(
      'pollInterval: must be at most 5m with livy (Livy forgets finished batches after 10 minutes by default)',
    );
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, selected };
}
