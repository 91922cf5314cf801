export * from './active-runs.js';
export * from './remote-run-driver.js';
export * from './remote-run.js';
export * from './provider-run-handler.js';
