// What Argo's agent does, in TypeScript: the Go-faithful RPC client of executor plugins (its HTTP client,
// reply decoder and retry), the dispatch of a plugin template over the installed plugins, and the Kubernetes
// client the shared agent and the Argo stack use. Shared by the local agent, the conformance kit, the events
// emulator and the shared agent.
export * from './blocked-networks.js';
export * from './agent-dispatch.js';
export * from './argo-reply.js';
export * from './fnv32a.js';
export * from './go-http-client.js';
export * from './go-json.js';
export * from './go-unmarshal.js';
export * from './json-decode.js';
export * from './json-tree.js';
export * from './plugin-rpc-client.js';
export * from './process-task.js';
export * from './kube/index.js';
export * from './http-template.js';
