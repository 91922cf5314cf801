import { runPlugin } from '@app/plugin-kit';
import { slackNotifierPlugin } from './slack-notifier.plugin.js';

void runPlugin(slackNotifierPlugin);
