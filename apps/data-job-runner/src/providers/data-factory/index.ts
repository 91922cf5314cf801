import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider, tokenCredential } from '../data-job-provider.js';
import { DATA_FACTORY_FAMILY, dataFactoryVariables, readDataFactory } from './data-factory-settings.js';

/** Azure Data Factory: one run of a pipeline, with Microsoft Entra tokens from @azure/identity. */
export const dataFactory = defineDataJobProvider({
  key: 'dataFactory',
  label: 'Data Factory',
  variables: dataFactoryVariables,
  prefixes: ['DATA_FACTORY_'],
  enable: 'DATA_FACTORY_SUBSCRIPTION_ID+DATA_FACTORY_RESOURCE_GROUP+DATA_FACTORY_FACTORY',
  scopeKinds: ['dataFactory'],
  read: (_env, source) => readDataFactory(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ dataFactory: connections.keys() }),
  credentials: (connections) =>
    [...connections.values()].flatMap((c) =>
      tokenCredential(c.credential.kind === 'clientSecret' ? c.credential.clientSecret : undefined),
    ),
  upstreams: upstreamKind(
    'dataFactory',
    'connection',
    DATA_FACTORY_FAMILY,
    (v) => `${v('SUBSCRIPTION_ID')}, ${v('RESOURCE_GROUP')} and ${v('FACTORY')}`,
  ),
  load: async () => (await import('./data-factory.provider.js')).dataFactoryModule,
});
