import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Caller } from '../auth/caller.js';
import { invalidMessage, objectMetaProblems } from '../dispatch/kubernetes-validation.js';
import type { WorkflowObject } from '../manifests/argo-objects.js';

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
    if (this.byKey.has(key)) throw new Error(`workflows.argoproj.io ${JSON.stringify(name)} already exists`);
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
