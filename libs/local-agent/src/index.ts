export * from './requests.js';
export * from './plugin-harness.js';
export * from './stand-in/index.js';
export * from './agent/index.js';
export * from './argo-schema.js';
export * from './demo/index.js';
export * from './scripted-plugin.js';
