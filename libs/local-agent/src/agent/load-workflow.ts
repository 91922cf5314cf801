import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { Workflow } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/Workflow';
import { WorkflowTemplate } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/WorkflowTemplate';
import { ClusterWorkflowTemplate } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/ClusterWorkflowTemplate';
import { WorkflowEventBinding } from '@kubernetes-models/argo-workflows/argoproj.io/v1alpha1/WorkflowEventBinding';
import { unknownFieldsError } from './unknown-fields.js';
import type { WorkflowShape } from './workflow-types.js';

/** A manifest that does not match Argo's schema; the message names the file, the object and the field. */
export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const MODELS: Record<string, { new (data: never): { validate(): void } }> = {
  Workflow: Workflow as never,
  WorkflowTemplate: WorkflowTemplate as never,
  ClusterWorkflowTemplate: ClusterWorkflowTemplate as never,
  WorkflowEventBinding: WorkflowEventBinding as never,
};

/** `/spec/templates/0/plugin` → `spec.templates[0].plugin` */
export function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((segment, i) =>
      /^\d+$/.test(segment)
        ? `[${segment}]`
        : `${i === 0 ? '' : '.'}${segment.replace(/~1/g, '/').replace(/~0/g, '~')}`,
    )
    .join('');
}

function describe(errors: AjvLikeError[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const e of errors) {
    const field = fieldPath(e.instancePath ?? '') || '(root)';
    const extra = e.params?.additionalProperty
      ? ` "${String(e.params.additionalProperty)}"`
      : e.params?.allowedValues
        ? ` (${(e.params.allowedValues as unknown[]).join(', ')})`
        : '';
    const line = `${field}: ${e.message ?? 'invalid'}${extra}`;
    if (!seen.has(line)) lines.push(line);
    seen.add(line);
  }
  return lines.slice(0, 5).join('; ') + (lines.length > 5 ? `; … ${lines.length - 5} more` : '');
}

/**
 * @kubernetes-models describes ParallelSteps as the Go struct `{steps: [...]}`, but Argo marshals it as a
 * plain list (`steps: [[a, b], [c]]`, which Argo's own JSON schema also says). Wrap each group the way the
 * model expects before validating, and map error paths back to the real shape.
 */
function asModelShape(object: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(object);
  const templates = (copy.spec as { templates?: Array<Record<string, unknown>> } | undefined)?.templates;
  for (const t of Array.isArray(templates) ? templates : []) {
    if (Array.isArray(t?.steps))
      t.steps = t.steps.map((group: unknown) => (Array.isArray(group) ? { steps: group } : group));
    // Argo names a template's container "main" when it has no name; the core/v1 Container model requires one.
    for (const field of ['container', 'script'] as const) {
      const c = t?.[field] as Record<string, unknown> | undefined;
      if (c && typeof c === 'object' && c.name === undefined) c.name = 'main';
    }
  }
  return copy;
}

/** Validates one Argo object with the model generated from Argo's CRD schema. */
export function validateArgoObject(object: Record<string, unknown>, source = 'input'): void {
  const kind = String(object.kind ?? '');
  const Model = Object.hasOwn(MODELS, kind) ? MODELS[kind] : undefined;
  const name =
    (object.metadata as { name?: string; generateName?: string } | undefined)?.name ??
    (object.metadata as { generateName?: string } | undefined)?.generateName ??
    '?';
  if (!Model)
    throw new ManifestError(
      `${source}: unsupported kind "${kind}" (expected ${Object.keys(MODELS).join(', ')})`,
    );
  // As argo lint: a workflow or template is first decoded strictly into Argo's types (an unknown field is an
  // error). argo lint lints no WorkflowEventBinding, and Argo reads those with unknown fields dropped.
  const unknown = kind === 'WorkflowEventBinding' ? undefined : unknownFieldsError(object, kind);
  if (unknown) throw new ManifestError(`${source}: ${kind}/${name}: ${unknown}`);
  try {
    new Model(asModelShape(object) as never).validate();
  } catch (err) {
    const errors = (err as { errors?: AjvLikeError[] }).errors?.map((e) => ({
      ...e,
      instancePath: (e.instancePath ?? '').replace(/\/steps\/(\d+)\/steps(?=\/|$)/g, '/steps/$1'),
    }));
    throw new ManifestError(
      `${source}: ${kind}/${name}: ${errors ? describe(errors) : (err as Error).message}`,
    );
  }
  if (kind === 'Workflow' || kind === 'WorkflowTemplate' || kind === 'ClusterWorkflowTemplate')
    checkPluginTemplates(object, `${source}: ${kind}/${name}`);
}

/** The plugin field must hold exactly one key (Plugin.UnmarshalJSON), which the schema cannot express. */
function checkPluginTemplates(object: Record<string, unknown>, where: string): void {
  const templates =
    (object.spec as { templates?: Array<{ name?: string; plugin?: unknown }> })?.templates ?? [];
  templates.forEach((t, i) => {
    if (t.plugin === undefined) return;
    const keys = t.plugin && typeof t.plugin === 'object' ? Object.keys(t.plugin) : [];
    if (keys.length !== 1)
      throw new ManifestError(
        `${where}: spec.templates[${i}].plugin: expected exactly one key, got ${keys.length}`,
      );
  });
}

export interface LoadedManifests {
  workflows: WorkflowShape[];
  templates: WorkflowShape[];
  bindings: Array<Record<string, unknown>>;
}

/** Parses (multi-document) YAML and validates every Argo object in it. */
export function parseManifests(text: string, source = 'input'): LoadedManifests {
  const out: LoadedManifests = { workflows: [], templates: [], bindings: [] };
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new ManifestError(`${source}: ${doc.errors[0].message}`);
    const object = doc.toJSON() as Record<string, unknown> | null;
    if (!object) continue;
    validateArgoObject(object, source);
    if (object.kind === 'Workflow') out.workflows.push(object as unknown as WorkflowShape);
    else if (object.kind === 'WorkflowEventBinding') out.bindings.push(object);
    else out.templates.push(object as unknown as WorkflowShape);
  }
  return out;
}

export function loadManifestFile(path: string): LoadedManifests {
  return parseManifests(readFileSync(path, 'utf8'), path);
}
