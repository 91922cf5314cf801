// The parts of Argo's objects the event path reads and writes (inputs are validated with Argo's models first).

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface SubmitParameter {
  name: string;
  value?: string;
  valueFrom?: { event?: string; [source: string]: unknown };
}

export interface SubmitSpec {
  workflowTemplateRef: { name: string; clusterScope?: boolean };
  arguments?: { parameters?: SubmitParameter[] };
  metadata?: {
    name?: string;
    generateName?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
}

export interface BindingObject {
  apiVersion: string;
  kind: 'WorkflowEventBinding';
  metadata: ObjectMeta & { name: string; namespace: string };
  spec: { event: { selector: string }; submit?: SubmitSpec };
}

export interface TemplateObject {
  apiVersion: string;
  kind: 'WorkflowTemplate' | 'ClusterWorkflowTemplate';
  metadata: ObjectMeta & { name: string };
  spec: {
    workflowMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    [field: string]: unknown;
  };
}

export interface WorkflowObject {
  apiVersion: 'argoproj.io/v1alpha1';
  kind: 'Workflow';
  metadata: ObjectMeta & {
    name: string;
    namespace: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  spec: {
    workflowTemplateRef: { name: string; clusterScope?: boolean };
    arguments?: { parameters: Array<{ name: string; value: string }> };
  };
}

/** Argo's label keys used on this path. */
export const LABEL = {
  instanceId: 'workflows.argoproj.io/controller-instanceid',
  workflowTemplate: 'workflows.argoproj.io/workflow-template',
  clusterWorkflowTemplate: 'workflows.argoproj.io/cluster-workflow-template',
  binding: 'workflows.argoproj.io/workflow-event-binding',
  creator: 'workflows.argoproj.io/creator',
  creatorEmail: 'workflows.argoproj.io/creator-email',
  creatorPreferredUsername: 'workflows.argoproj.io/creator-preferred-username',
  action: 'workflows.argoproj.io/action',
} as const;
