import { definePlugin } from '@app/plugin-kit';
import { NotifierEnv } from './config/notifier.env.js';
import { PROVIDER_SETTINGS } from './providers/index.js';

/**
 * The chat notifier: `plugin: {notify: {<provider>: {...}}}` posts, threads and edits one message per
 * execution; its entry `plugin: {approve: {<provider>: {...}}}` is an approval gate. The 0.1.0 key `slack`
 * still works for this release: `plugin: {slack: X}` is `plugin: {notify: {slack: X}}`.
 */
export const chatNotifierPlugin = definePlugin({
  name: 'chat-notifier',
  formerName: 'slack-notifier',
  key: 'notify',
  aliases: { slack: 'slack' },
  entries: ['approve'],
  port: 10420,
  env: NotifierEnv,
  // Each provider's family: its named destinations (SLACK_<NAME>_BOT_TOKEN, SMTP_<NAME>_URL, ...).
  envPrefixes: PROVIDER_SETTINGS.prefixes,
  providers: PROVIDER_SETTINGS,
  load: async () => (await import('./chat-notifier.module.js')).chatNotifierModule(),
});
