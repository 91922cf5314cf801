// The local Argo Server event endpoint (emulator) and the WorkflowEventBinding tester.
export { startEventEndpoint } from './start-event-endpoint.js';
export type { EventEndpoint } from './start-event-endpoint.js';
export { ARGO_SERVER_DEFAULTS, SEED_DEFAULTS } from './options.js';
export type { EventEndpointOptions, LogEntry, RunSettings } from './options.js';
export { LIST_WORKFLOWS, loadTokensFile, parseTokensConfig, PERMISSIONS } from './auth/tokens-file.js';
export type { TokenEntry, TokensConfig, WebhookClient } from './auth/tokens-file.js';
export { loadManifestFolder, parseManifestText } from './manifests/load-manifests.js';
export type { BindingObject, TemplateObject, WorkflowObject } from './manifests/argo-objects.js';
export { LABEL } from './manifests/argo-objects.js';
export { evaluateBinding } from './dispatch/evaluate-binding.js';
export type { BindingEvaluation, BindingFailure } from './dispatch/evaluate-binding.js';
export type { RecordedEvent } from './recorder/event-recorder.js';
export type { WorkflowRun } from './submit/workflow-runner.js';
export { testBindings } from './tester/binding-tester.js';
export type { BindingReport, TestEventInput, TestReport } from './tester/binding-tester.js';
export { renderTestReport } from './tester/render-report.js';
export type { ReceivedEventRecord } from './intake/event-intake.service.js';
export { GoJsonSyntaxError } from './intake/go-json-decoder.js';
