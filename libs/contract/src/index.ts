export * from './any-string.js';
export * from './duration.js';
export * from './execute-template.js';
export * from './node-phase.js';
export * from './request-shape.js';
export type * from './template-model.js';
export * from './former-names.js';
export * from './long-timer.js';
