import type { Duration } from './duration.js';
import type { NodePhase } from './node-phase.js';
import type { Outputs, Template } from './template-model.js';

/**
 * The workflow as the agent sends it: these three metadata fields, always present. Argo's agent sends nothing
 * else; the shared agent adds the Workflow's creator labels (`{}` when it could not read them).
 */
export interface WorkflowRef {
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    labels?: Record<string, string>;
  };
}

/** Request body of `POST /api/v1/template.execute` (swagger: executor.ExecuteTemplateArgs). */
export interface ExecuteTemplateArgs {
  workflow: WorkflowRef;
  template: Template;
}

/** Output parameter on the wire: the value is always sent as a string. */
export interface OutputParameter {
  name: string;
  value: string;
}

/** What a plugin reports for a node. `progress` is accepted by the agent but ignored by the controller. */
export interface NodeResult {
  phase?: NodePhase;
  message?: string;
  outputs?: Omit<Outputs, 'parameters'> & { parameters?: OutputParameter[] };
  progress?: string;
}

/**
 * Reply body. `{}` (or `null`) means "not my template". `requeue` is a Go duration string; with a
 * non-final phase the agent calls again after it. It is ignored with Succeeded.
 */
export interface ExecuteTemplateReply {
  node?: NodeResult;
  requeue?: Duration;
}

export const EXECUTE_TEMPLATE_PATH = '/api/v1/template.execute';

/** The agent mounts a per-sidecar token file here (init container writes 32 random characters). */
export const DEFAULT_TOKEN_FILE = '/var/run/argo/token';
