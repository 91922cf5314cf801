export * from './slack-api.stand-in.js';
export * from './slack-state.js';
