export * from './slack/slack-api.stand-in.js';
export * from './slack/slack-state.js';
