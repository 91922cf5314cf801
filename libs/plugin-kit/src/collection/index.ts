export * from './collection-env.js';
export * from './start-collection.js';
