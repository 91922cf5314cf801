import type { NodePhase } from '@app/contract';
import type { ArgoOutputs } from '@app/argo-agent/argo-reply.js';
import { fnv32a } from '@app/argo-agent/fnv32a.js';

export type AgentNodeType = 'Workflow' | 'Steps' | 'StepGroup' | 'DAG' | 'Plugin' | 'Retry' | 'Skipped';

/** A node of the run, shaped like Argo's NodeStatus (as `argo get` shows it). */
export interface AgentNode {
  id: string;
  name: string;
  displayName: string;
  type: AgentNodeType;
  templateName: string;
  /** A known phase, or the unknown string a plugin sent (Argo stores it as is; the node never completes). */
  phase: NodePhase;
  message?: string;
  /** As the controller copies them from the reply (taskset.go): parameters, artifacts, result, exitCode. */
  outputs?: ArgoOutputs;
  children: string[];
  startedAt: number;
  finishedAt?: number;
  /** template.execute dispatches made for a plugin node (first call + requeues). */
  calls: number;
  /** The plugin that answered (plugin nodes). */
  plugin?: string;
  /** Set when the node will never be called again although it is not finished (Running without requeue). */
  hung?: boolean;
}

export function nodeId(workflowName: string, nodeName: string): string {
  return nodeName === workflowName ? workflowName : `${workflowName}-${fnv32a(nodeName)}`;
}

export function isFailedPhase(phase: NodePhase): boolean {
  return phase === 'Failed' || phase === 'Error';
}

export function outputValue(node: AgentNode | undefined, name: string): string | undefined {
  return node?.outputs?.parameters?.find((p) => p.name === name)?.value;
}
