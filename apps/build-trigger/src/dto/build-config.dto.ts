import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsGoDuration, type ConfigClass } from '@app/plugin-kit';
import { providerBodyClass } from '@app/plugin-kit/providers/provider-blocks.js';
import { PROVIDERS, type ProviderBlocks } from '../providers/index.js';
import { BooleanLike, NumberAsText } from './text-transforms.js';

/** The fields of the body under `plugin.build` besides its provider block: the shared settings. */
export class BuildSettings {
  /** false: succeed as soon as the build is started. */
  @IsOptional()
  @BooleanLike()
  @IsBoolean()
  wait = true;

  @IsOptional()
  @IsGoDuration({ min: '1s', max: '24h' })
  pollInterval = '30s';

  /** On expiry the build is cancelled upstream and the node fails. */
  @IsOptional()
  @IsGoDuration({ min: '1s', max: '720h' })
  timeout?: string;

  /** Separates otherwise identical triggers in one workflow (e.g. "{{node.name}}" or "{{retries}}"). */
  @IsOptional()
  @NumberAsText()
  @IsString()
  @MaxLength(256)
  key?: string;

  /** A named server the admin configured (JENKINS_<NAME>_URL, ...); default: the unnamed one. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9]+([-_][A-Za-z0-9]+)*$/, {
    message: 'server must be a server name such as prod or eu-west',
  })
  @MaxLength(64)
  server?: string;

  /** Jenkins only: an UNSTABLE build counts as success. */
  @IsOptional()
  @BooleanLike()
  @IsBoolean()
  unstableIsSuccess = false;
}

/**
 * The class of the body under `plugin.build`: the settings above and one optional block per CI system of the
 * table (`build: {jenkins: {...}}`), each checked by its provider's class; that exactly one is given is the pick.
 */
export function buildConfigClass(): Promise<ConfigClass<BuildConfig>> {
  return providerBodyClass<BuildConfig>(BuildSettings, PROVIDERS);
}

/** The `build:` body as validated: its settings and its provider block. */
export type BuildConfig = BuildSettings & ProviderBlocks;
