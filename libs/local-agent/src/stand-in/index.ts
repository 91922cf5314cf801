export * from './auth.js';
export * from './faults.js';
export * from './hostile-replies.js';
export * from './seeded-random.js';
export * from './stand-in-server.js';
export * from './provider-stand-in.js';
export * from './lifecycle.js';
export * from './stand-in-host.js';
