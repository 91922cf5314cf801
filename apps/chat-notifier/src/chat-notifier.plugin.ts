import { definePlugin } from '@app/plugin-kit';
import { NotifierEnv } from './config/notifier.env.js';

/**
 * The chat notifier: `plugin: {notify: {<provider>: {...}}}` posts, threads and edits one message per
 * execution. The 0.1.0 key `slack` still works: `plugin: {slack: X}` is `plugin: {notify: {slack: X}}`.
 */
export const chatNotifierPlugin = definePlugin({
  name: 'chat-notifier',
  formerName: 'slack-notifier',
  key: 'notify',
  aliases: { slack: 'slack' },
  port: 10420,
  env: NotifierEnv,
  // Named destinations: SLACK_BOT_TOKEN_<NAME>, MATTERMOST_URL_<NAME>, DISCORD_WEBHOOK_URL_<NAME>, ...
  envPrefixes: ['SLACK_', 'MATTERMOST_', 'DISCORD_', 'PAGERDUTY_', 'GOOGLE_CHAT_', 'TEAMS_', 'SMTP_'],
  load: async () => (await import('./chat-notifier.module.js')).ChatNotifierModule,
});
