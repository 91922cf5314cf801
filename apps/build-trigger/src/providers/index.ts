import { ProviderTable, type ProviderBlocksOf } from '@app/plugin-kit';
import type { BuildProviderDefinition } from '../build/build-provider.js';
import { github } from './github/index.js';
import { gitlab } from './gitlab/index.js';
import { jenkins } from './jenkins/index.js';

/**
 * The build trigger's CI systems, in the order of the docs: a provider is its folder under providers/ and its
 * line here. The sidecar's variables, the servers, the body's provider blocks and a collection's families come
 * from this list.
 */
const DEFINITIONS = { jenkins, github, gitlab };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own variables and servers
export const PROVIDERS = new ProviderTable<BuildProviderDefinition<any, any>>(Object.values(DEFINITIONS));

/** Every server the admin configured, by CI system and server name (`default` for the unnamed one). */
export type ServerDirectory = {
  [K in keyof typeof DEFINITIONS]: Map<
    string,
    (typeof DEFINITIONS)[K] extends BuildProviderDefinition<object, infer S> ? S : never
  >;
};

/** The body's provider blocks, by key, each of its CI system's block class (one of them is given). */
export type ProviderBlocks = ProviderBlocksOf<typeof DEFINITIONS>;
