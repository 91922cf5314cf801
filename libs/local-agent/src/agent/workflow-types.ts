/** The parts of Argo's Workflow model the local agent walks (inputs are validated against the CRD schema first). */
export interface ParamSpec {
  name: string;
  value?: string;
  default?: string;
  valueFrom?: { supplied?: object; parameter?: string; default?: string };
}

export interface ArgumentsSpec {
  parameters?: ParamSpec[];
}

export interface TemplateRefSpec {
  name: string;
  template: string;
  clusterScope?: boolean;
}

export interface StepSpec {
  name: string;
  template?: string;
  templateRef?: TemplateRefSpec;
  arguments?: ArgumentsSpec;
  withItems?: unknown[];
  withParam?: string;
  withSequence?: { count?: string | number; start?: string | number; end?: string | number; format?: string };
  when?: string;
  continueOn?: { failed?: boolean; error?: boolean };
}

export interface TaskSpec extends StepSpec {
  dependencies?: string[];
  depends?: string;
}

export interface RetryStrategySpec {
  limit?: number | string;
  retryPolicy?: string;
  backoff?: { duration?: string; factor?: number | string; maxDuration?: string };
}

export interface TemplateSpec {
  name: string;
  inputs?: { parameters?: ParamSpec[] };
  outputs?: { parameters?: ParamSpec[] };
  steps?: StepSpec[][];
  dag?: { tasks: TaskSpec[]; failFast?: boolean };
  plugin?: Record<string, unknown>;
  retryStrategy?: RetryStrategySpec;
  [field: string]: unknown;
}

export interface WorkflowSpecShape {
  entrypoint?: string;
  templates?: TemplateSpec[];
  arguments?: ArgumentsSpec;
  onExit?: string;
  serviceAccountName?: string;
  activeDeadlineSeconds?: number;
  workflowTemplateRef?: { name: string; clusterScope?: boolean };
  [field: string]: unknown;
}

export interface WorkflowShape {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    generateName?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: WorkflowSpecShape;
}
