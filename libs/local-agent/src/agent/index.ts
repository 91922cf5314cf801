export * from './agent-node.js';
export * from './load-workflow.js';
export * from './render.js';
export * from './run-workflow.js';
export * from './substitute.js';
export * from './when.js';
export * from './workflow-runner.js';
export type * from './workflow-types.js';
