import type { CollectionDefinition, PluginDefinition } from '@app/plugin-kit';
import * as hosted from './hosted-plugins.js';

/** The `collection` executor plugin: every plugin of the repo behind one sidecar, each under its own key. */
export const collection: CollectionDefinition = {
  name: 'collection',
  port: 10430,
  plugins: Object.values(hosted as Record<string, PluginDefinition>).sort((a, b) => a.port - b.port),
};
