import { upstreamKind } from '@app/plugin-kit';
import { defineDataJobProvider } from '../data-job-provider.js';
import {
  VERTEX_PIPELINES_FAMILY,
  readVertexPipelines,
  vertexPipelinesVariables,
} from './vertex-pipelines-settings.js';

/** Google Vertex AI Pipelines: one run of a compiled pipeline. */
export const vertexPipelines = defineDataJobProvider({
  key: 'vertexPipelines',
  label: 'Vertex AI Pipelines',
  variables: vertexPipelinesVariables,
  prefixes: ['VERTEX_PIPELINES_'],
  enable: 'VERTEX_PIPELINES_PROJECT+VERTEX_PIPELINES_REGION+VERTEX_PIPELINES_CREDENTIALS',
  scopeKinds: ['vertexPipelines'],
  read: (_env, source) => readVertexPipelines(source),
  configured: (connections) => connections.size > 0,
  destinations: (connections) => ({ vertexPipelines: connections.keys() }),
  credentials: (connections) =>
    [...connections.values()].flatMap((c) =>
      c.credentials.privateKey ? [{ secret: c.credentials.privateKey }] : [],
    ),
  upstreams: upstreamKind(
    'vertexPipelines',
    'connection',
    VERTEX_PIPELINES_FAMILY,
    (v) => `${v('PROJECT')}, ${v('REGION')} and ${v('CREDENTIALS')}`,
  ),
  load: async () => (await import('./vertex-pipelines.provider.js')).vertexPipelinesModule,
});
