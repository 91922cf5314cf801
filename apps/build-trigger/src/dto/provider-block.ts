import { exactlyOneProviderBlock, PluginConfigError } from '@app/plugin-kit';
import { PROVIDER_NAMES } from '../build/build-run.js';
import type { BuildConfig, GitHubBuildSpec, GitLabBuildSpec, JenkinsBuildSpec } from './build-config.dto.js';

export type ChosenProvider =
  | { provider: 'jenkins'; spec: JenkinsBuildSpec }
  | { provider: 'github'; spec: GitHubBuildSpec }
  | { provider: 'gitlab'; spec: GitLabBuildSpec };

/** The one provider block of the body; PluginConfigError naming the problem for none, two or three. */
export function chooseProvider(config: BuildConfig): ChosenProvider {
  const provider = exactlyOneProviderBlock(config, PROVIDER_NAMES);
  if (config.unstableIsSuccess && provider !== 'jenkins') {
    throw new PluginConfigError(`unstableIsSuccess: only applies to jenkins builds, not ${provider}`);
  }
  return { provider, spec: config[provider] } as ChosenProvider;
}
