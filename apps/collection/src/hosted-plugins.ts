// Every plugin the collection sidecar can host: one line each (`npm run new-plugin` adds its own).
// Only the definitions are imported here; each plugin's module and SDKs load on its first own call.
export { chatNotifierPlugin } from '../../chat-notifier/src/chat-notifier.plugin.js';
export { buildTriggerPlugin } from '../../build-trigger/src/build-trigger.plugin.js';
export { dataJobPlugin } from '../../data-job-runner/src/data-job.plugin.js';
export { eventEmitterPlugin } from '../../event-emitter/src/event-emitter.plugin.js';
