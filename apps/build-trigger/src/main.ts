import { runPlugin } from '@app/plugin-kit';
import { buildTriggerPlugin } from './build-trigger.plugin.js';

void runPlugin(buildTriggerPlugin);
