import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider, loginCredential } from '../data-job-provider.js';
import { LIVY_FAMILY, livyVariables, readLivy } from './livy-settings.js';

/** Apache Livy: a Spark batch. */
export const livy = defineDataJobProvider({
  key: 'livy',
  label: 'Livy',
  variables: livyVariables,
  prefixes: ['LIVY_'],
  enable: 'LIVY_URL',
  scopeKinds: ['livy'],
  read: (_env, source) => readLivy(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ livy: connections.keys() }),
  credentials: (connections) => [...connections.values()].flatMap(loginCredential),
  upstreams: upstreamKind('livy', 'connection', LIVY_FAMILY, (v) => v('URL')),
  load: async () => (await import('./livy.provider.js')).livyModule,
});
