import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Caller } from '../auth/caller.js';
import { invalidMessage, objectMetaProblems } from '../dispatch/kubernetes-validation.js';
import type { WorkflowObject } from '../manifests/argo-objects.js';

/**
 * The API server's AlreadyExists. A workflow with a generateName as well as its name (Argo gives every workflow
 * made from a template `generateName: <template>-`) gets the wording of a generated-name conflict.
 */
function alreadyExists({ metadata }: WorkflowObject): string {
  const clash = `workflows.argoproj.io ${JSON.stringify(metadata.name)} already exists`;
  return metadata.generateName
    ? `${clash}, the server was not able to generate a unique name for the object`
    : clash;
}

/** The Workflows "in the cluster": created by events, never by anything else here. */
@Injectable()
export class WorkflowStore {
  private readonly byKey = new Map<string, WorkflowObject>();

  /**
   * Kubernetes' create: RBAC (`create workflows`), object-meta validation (422) and name uniqueness
   * (AlreadyExists). Throws an Error with the API server's message; returns the stored object.
   */
  create(workflow: WorkflowObject, caller: Caller | undefined): WorkflowObject {
    const { name, namespace } = workflow.metadata;
    if (caller && !caller.can('create workflows', namespace))
      throw new Error(caller.forbidden('create workflows', namespace));
    const problems = objectMetaProblems(workflow.metadata);
    if (problems.length > 0) throw new Error(invalidMessage(name, problems));
    const key = `${namespace}/${name}`;
    if (this.byKey.has(key)) throw new Error(alreadyExists(workflow));
    const stored: WorkflowObject = structuredClone(workflow);
    stored.metadata.uid = randomUUID();
    stored.metadata.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    this.byKey.set(key, stored);
    return structuredClone(stored);
  }

  /** Workflows in creation order, optionally of one namespace and matching `key=value` labels. */
  list(namespace?: string, labels: ReadonlyMap<string, string> = new Map()): WorkflowObject[] {
    // The label names come from a request's selector: own labels only (`constructor=x` matches nothing).
    const has = (w: WorkflowObject, k: string, v: string): boolean =>
      Object.hasOwn(w.metadata.labels, k) && w.metadata.labels[k] === v;
    return [...this.byKey.values()]
      .filter((w) => namespace === undefined || w.metadata.namespace === namespace)
      .filter((w) => [...labels].every(([k, v]) => has(w, k, v)))
      .map((w) => structuredClone(w));
  }
}
