import { definePlugin } from '@app/plugin-kit';
import { ArgoEnv } from './config/argo.env.js';

/** `workflow-event`: sends an event to the Argo Server's event endpoint, once per execution. */
export const eventEmitterPlugin = definePlugin({
  name: 'event-emitter',
  key: 'workflow-event',
  port: 10423,
  env: ArgoEnv,
  envPrefixes: ['ARGO_'],
  load: async () => (await import('./event-emitter.module.js')).EventEmitterModule,
});
