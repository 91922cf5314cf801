export * from './collection-env.js';
export * from './execution-bound.js';
export * from './start-collection.js';
