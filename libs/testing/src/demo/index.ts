export * from './demo-upstreams.js';
export * from './plugin-process.js';
