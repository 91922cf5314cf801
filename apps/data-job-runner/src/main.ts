import { runPlugin } from '@app/plugin-kit';
import { dataJobPlugin } from './data-job.plugin.js';

void runPlugin(dataJobPlugin);
