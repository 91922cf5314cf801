import { ManifestError } from '@app/local-agent/agent/load-workflow.js';
import { LABEL, type BindingObject, type TemplateObject } from './argo-objects.js';
import type { SourcedObject } from './load-manifests.js';

/**
 * The cluster as the event path sees it: WorkflowEventBindings and WorkflowTemplates per namespace,
 * ClusterWorkflowTemplates. Objects without a namespace get the default one.
 */
export class ManifestStore {
  private readonly bindings = new Map<string, BindingObject[]>();
  private readonly templates = new Map<string, TemplateObject>();
  private readonly clusterTemplates = new Map<string, TemplateObject>();
  private readonly sources = new Map<string, string>();

  constructor(objects: SourcedObject[], namespaceDefault: string) {
    for (const { object, source } of objects) this.add(object, source, namespaceDefault);
    for (const list of this.bindings.values())
      list.sort((a, b) =>
        a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0,
      );
  }

  private add(object: Record<string, unknown>, source: string, namespaceDefault: string): void {
    const copy = structuredClone(object) as unknown as BindingObject | TemplateObject;
    const kind = copy.kind;
    const name = copy.metadata?.name;
    if (!name) throw new ManifestError(`${source}: ${kind}: metadata.name is required`);
    if (kind !== 'ClusterWorkflowTemplate') copy.metadata.namespace ??= namespaceDefault;
    const id = `${kind}/${copy.metadata.namespace ?? ''}/${name}`;
    const earlier = this.sources.get(id);
    if (earlier) throw new ManifestError(`${source}: ${kind}/${name} is already defined in ${earlier}`);
    this.sources.set(id, source);
    if (kind === 'WorkflowEventBinding') {
      const ns = copy.metadata.namespace!;
      this.bindings.set(ns, [...(this.bindings.get(ns) ?? []), copy]);
    } else if (kind === 'WorkflowTemplate') this.templates.set(`${copy.metadata.namespace}/${name}`, copy);
    else this.clusterTemplates.set(name, copy);
  }

  /**
   * Bindings of a namespace in name order (the Kubernetes list order), filtered by the instance-id label
   * selector: without an instance ID only unlabelled bindings, with one only bindings labelled with it.
   */
  listBindings(namespace: string, instanceId: string | undefined): BindingObject[] {
    return (this.bindings.get(namespace) ?? []).filter((b) => {
      const label = b.metadata.labels?.[LABEL.instanceId];
      return instanceId ? label === instanceId : label === undefined;
    });
  }

  getTemplate(namespace: string, name: string): TemplateObject | undefined {
    return this.templates.get(`${namespace}/${name}`);
  }

  getClusterTemplate(name: string): TemplateObject | undefined {
    return this.clusterTemplates.get(name);
  }

  /** Every template, for the local agent's workflowTemplateRef. */
  allTemplates(): TemplateObject[] {
    return [...this.templates.values(), ...this.clusterTemplates.values()];
  }

  allBindings(): BindingObject[] {
    return [...this.bindings.values()].flat();
  }
}
