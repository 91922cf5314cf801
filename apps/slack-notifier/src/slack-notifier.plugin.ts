import { definePlugin } from '@app/plugin-kit';
import { SlackEnv } from './config/slack.env.js';

/** The `slack` executor plugin: posts, threads, edits and uploads to Slack, one message per execution. */
export const slackNotifierPlugin = definePlugin({
  name: 'slack-notifier',
  key: 'slack',
  port: 10420,
  env: SlackEnv,
  envPrefixes: ['SLACK_'],
  load: async () => (await import('./slack-notifier.module.js')).SlackNotifierModule,
});
