import { definePlugin } from '@app/plugin-kit';
import { BuildTriggerEnv } from './config/build-trigger.env.js';

/** Trigger a Jenkins, GitHub Actions or GitLab CI build from a workflow step and wait for its result. */
export const buildTriggerPlugin = definePlugin({
  name: 'build-trigger',
  key: 'build',
  port: 10421,
  env: BuildTriggerEnv,
  envPrefixes: ['JENKINS_', 'GITHUB_', 'GITLAB_'],
  load: async () => (await import('./build-trigger.module.js')).BuildTriggerModule,
});
