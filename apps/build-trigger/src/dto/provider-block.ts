import { PROVIDERS } from '../providers/index.js';
import type { BuildConfig } from './build-config.dto.js';

/** The one provider block of the body; PluginConfigError naming the problem for none, two or three. */
export function chooseProvider(config: BuildConfig): { provider: string; spec: unknown } {
  const { key, block } = PROVIDERS.pickBlock(config);
  return { provider: key, spec: block };
}
