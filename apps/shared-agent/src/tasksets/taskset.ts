import type { KubeObject } from '@app/argo-agent';
import { isFinalPhase } from '@app/contract';

/** The label the controller sets on a TaskSet once its workflow is fulfilled (Argo's agent then stops). */
export const COMPLETED_LABEL = 'workflows.argoproj.io/completed';
export const INSTANCE_ID_LABEL = 'workflows.argoproj.io/controller-instanceid';

/** wfv1.WorkflowTaskSet as the API serves it. */
export interface TaskSetObject extends KubeObject {
  metadata: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{ kind?: string; uid?: string; name?: string }>;
  };
  spec?: { tasks?: Record<string, Record<string, unknown>> };
  status?: { nodes?: Record<string, { phase?: string }> };
}

/** What the agent keeps of a TaskSet it works. */
export interface HeldTaskSet {
  key: string;
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
  /** The workflow's uid (its owner reference), which the plugins key their work on. */
  workflowUid: string;
  shard: number;
  tasks: Record<string, Record<string, unknown>>;
  /** Nodes whose status already holds a final phase. */
  finals: Set<string>;
  /** Roughly what it costs in memory. */
  bytes: number;
}

/**
 * Whether resourceVersion `a` is older than `b`. Kubernetes calls them opaque; the API server's are etcd revisions
 * (integers), and a watch that lags behind a fresh list can still bring an older copy of an object: it must not
 * replace the newer one. Anything that is not two integers counts as not older.
 */
export function olderResourceVersion(a: string, b: string): boolean {
  return /^\d+$/.test(a) && /^\d+$/.test(b) && BigInt(a) < BigInt(b);
}

export const taskSetKey = (namespace: string, name: string) => `${namespace}/${name}`;

export function isCompleted(object: TaskSetObject): boolean {
  return object.metadata.labels?.[COMPLETED_LABEL] === 'true';
}

/** The held form of a TaskSet object. */
export function holdTaskSet(object: TaskSetObject, shard: number): HeldTaskSet {
  const namespace = object.metadata.namespace ?? '';
  const name = object.metadata.name ?? '';
  const tasks = object.spec?.tasks ?? {};
  const nodes = object.status?.nodes ?? {};
  const finals = new Set(
    Object.entries(nodes)
      .filter(([, node]) => isFinalPhase(node?.phase))
      .map(([id]) => id),
  );
  const owner =
    object.metadata.ownerReferences?.find((o) => o.kind === 'Workflow') ??
    object.metadata.ownerReferences?.[0];
  return {
    key: taskSetKey(namespace, name),
    namespace,
    name,
    uid: object.metadata.uid ?? '',
    resourceVersion: object.metadata.resourceVersion ?? '',
    workflowUid: owner?.uid ?? '',
    shard,
    tasks,
    finals,
    bytes: 512 + JSON.stringify(tasks).length * 2 + Object.keys(nodes).length * 96,
  };
}
