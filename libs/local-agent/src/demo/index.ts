export * from './demo-upstreams.js';
export * from './plugin-process.js';
export * from './container-memory.js';
