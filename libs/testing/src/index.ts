export * from './requests.js';
export * from './plugin-harness.js';
