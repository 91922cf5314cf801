import { PluginConfigError } from '@app/plugin-kit';
import { PROVIDER_NAMES, type ProviderName } from '../build/build-run.js';
import type { BuildConfig, GitHubBuildSpec, GitLabBuildSpec, JenkinsBuildSpec } from './build-config.dto.js';

export type ChosenProvider =
  | { provider: 'jenkins'; spec: JenkinsBuildSpec }
  | { provider: 'github'; spec: GitHubBuildSpec }
  | { provider: 'gitlab'; spec: GitLabBuildSpec };

/** The one provider block of the body; PluginConfigError naming the problem for none, two or three. */
export function chooseProvider(config: BuildConfig): ChosenProvider {
  const present = PROVIDER_NAMES.filter((name) => config[name] !== undefined && config[name] !== null);
  if (present.length === 0) {
    throw new PluginConfigError(
      `body: exactly one provider block is required (${PROVIDER_NAMES.join(', ')}); got none`,
    );
  }
  if (present.length > 1) {
    throw new PluginConfigError(
      `body: exactly one provider block is allowed (${PROVIDER_NAMES.join(', ')}); got ${present.join(' and ')}`,
    );
  }
  const provider: ProviderName = present[0];
  if (config.unstableIsSuccess && provider !== 'jenkins') {
    throw new PluginConfigError(`unstableIsSuccess: only applies to jenkins builds, not ${provider}`);
  }
  return { provider, spec: config[provider] } as ChosenProvider;
}
