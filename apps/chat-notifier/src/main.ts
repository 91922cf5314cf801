import { runPlugin } from '@app/plugin-kit';
import { chatNotifierPlugin } from './chat-notifier.plugin.js';

void runPlugin(chatNotifierPlugin);
