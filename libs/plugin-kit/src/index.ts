// The plugin kit. Everything exported here is safe on the start-up path of a sidecar: no Nest, no SDKs.
// The Nest runtime is loaded by the kit itself on the first call addressed to the plugin; HTTP clients for
// upstreams live in '@app/plugin-kit/upstream/http-client.js', the check of a plugin body (class-transformer) in
// '@app/plugin-kit/config/plugin-config.js', the rules of env classes (class-validator's names and messages, without
// class-validator) in '@app/plugin-kit/config/env-rules.js', a provider's Nest context in
// '@app/plugin-kit/providers/provider-context.js' and the body's provider blocks in
// '@app/plugin-kit/providers/provider-blocks.js'.
export * from './plugin-definition.js';
export * from './run-plugin.js';
export * from './execution/plugin-handler.js';
export * from './execution/replies.js';
export * from './execution/template-executor.js';
export * from './execution/overloaded-error.js';
export * from './upstream/upstream-scope.js';
export * from './errors/upstream-error.js';
export * from './config/env.js';
export * from './config/kit-env.js';
export * from './config/go-duration.validator.js';
export * from './config/http-url.validator.js';
export * from './config/declared-properties.js';
export * from './config/namespace-scopes.js';
export * from './config/former-names.js';
export * from './config/named-upstreams.js';
export * from './config/provider-block.js';
export * from './providers/provider-definition.js';
export * from './providers/provider-table.js';
export * from './providers/provider-clients.js';
export * from './providers/upstream-providers.js';
export * from './auth/token-guard.js';
export * from './http/contract-server.js';
export * from './json/json-text.js';
export * from './ledger/canonical-json.js';
export * from './ledger/execution-key.js';
export * from './ledger/execution-ledger.js';
export * from './ledger/ledger-store.js';
export * from './logging/plugin-logger.js';
export * from './logging/redactor.js';
export * from './nest/provide-handler.js';
export * from './remote-run/index.js';
export * from './hosting/template-router.js';
export * from './collection/index.js';
