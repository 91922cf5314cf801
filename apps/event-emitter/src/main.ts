import { runPlugin } from '@app/plugin-kit';
import { eventEmitterPlugin } from './event-emitter.plugin.js';

void runPlugin(eventEmitterPlugin);
