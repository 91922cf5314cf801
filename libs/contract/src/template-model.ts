// The Template model is not hand-written: it comes from @kubernetes-models/argo-workflows, generated from
// Argo v4's own CRD schemas. Everything here is a type-only re-export, so the runtime path of a plugin never
// loads the (large) model classes; tools that need `validate()` import the classes themselves.
export type { ITemplate as Template } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/Template';
export type { IInputs as Inputs } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/Inputs';
export type { IOutputs as Outputs } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/Outputs';
export type { IParameter as Parameter } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/Parameter';
export type { INodeResult as ModelNodeResult } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/NodeResult';
export type { IWorkflow as Workflow } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/Workflow';
export type { IWorkflowTemplate as WorkflowTemplate } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/WorkflowTemplate';
export type { IWorkflowEventBinding as WorkflowEventBinding } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/WorkflowEventBinding';
