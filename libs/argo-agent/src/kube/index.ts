export * from './kube-client.js';
export * from './kube-connection.js';
export * from './kube-errors.js';
