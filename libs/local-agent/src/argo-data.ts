import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file of Argo's schemas, committed as test data in libs/local-agent/argo (their origin: its README.md). Found
 * from this module upwards, so that it is found from the sources and from a bundle of the checkout (dist/tools).
 */
export function argoDataFile(name: string): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'argo', name), join(dir, 'libs/local-agent/argo', name)]) {
      if (existsSync(candidate)) return candidate;
    }
    if (dirname(dir) === dir)
      throw new Error(`libs/local-agent/argo/${name} not found above ${import.meta.url}`);
  }
}

/** A JSON schema node of Argo's workflow schema (only what the readers here look at). */
export interface ArgoSchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, ArgoSchemaNode>;
  additionalProperties?: ArgoSchemaNode | boolean;
  items?: ArgoSchemaNode;
}

let workflowSchema: { $id: string; definitions: Record<string, ArgoSchemaNode> } | undefined;

/** Argo's JSON schema of every Argo resource (api/jsonschema/schema.json), parsed once. */
export function argoWorkflowSchema(): { $id: string; definitions: Record<string, ArgoSchemaNode> } {
  workflowSchema ??= JSON.parse(readFileSync(argoDataFile('workflow-jsonschema.json'), 'utf8')) as {
    $id: string;
    definitions: Record<string, ArgoSchemaNode>;
  };
  return workflowSchema;
}
