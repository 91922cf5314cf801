import { definePlugin } from '@app/plugin-kit';
import { BuildTriggerEnv } from './config/build-trigger.env.js';
import { PROVIDERS } from './providers/index.js';

/** Trigger a Jenkins, GitHub Actions or GitLab CI build from a workflow step and wait for its result. */
export const buildTriggerPlugin = definePlugin({
  name: 'build-trigger',
  key: 'build',
  port: 10421,
  env: BuildTriggerEnv,
  // Each CI system's family: its named servers (JENKINS_<NAME>_URL, GITLAB_<NAME>_TOKEN, ...).
  envPrefixes: PROVIDERS.prefixes,
  providers: PROVIDERS,
  load: async () => (await import('./build-trigger.module.js')).buildTriggerModule(),
});
