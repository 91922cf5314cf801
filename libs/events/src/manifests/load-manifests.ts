import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ManifestError, validateArgoObject } from '@app/local-agent/agent/load-workflow.js';

/** The kinds the event endpoint serves; Workflows (e.g. the emitting example next to a binding) are skipped. */
export const SERVED_KINDS = ['WorkflowEventBinding', 'WorkflowTemplate', 'ClusterWorkflowTemplate'];

export interface SourcedObject {
  object: Record<string, unknown>;
  source: string;
}

export interface LoadedFolder {
  objects: SourcedObject[];
  /** Documents of other kinds that were left out, as `file: Kind name` or `file: Kind with generateName x-`. */
  skipped: string[];
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.(ya?ml|json)$/.test(name) ? [path] : [];
    });
}

/**
 * Reads every YAML/JSON file under `dir` (recursively, in name order) and validates each binding and template
 * with Argo's models. A bad file throws a ManifestError naming the file, the object and the field.
 */
export function loadManifestFolder(dir: string): LoadedFolder {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new ManifestError(`${dir}: not a folder`);
  const out: LoadedFolder = { objects: [], skipped: [] };
  for (const file of yamlFiles(dir)) {
    const rel = relative(process.cwd(), file);
    const source = rel && !rel.startsWith('..') ? rel : file;
    const parsed = parseManifestText(readFileSync(file, 'utf8'), source);
    out.objects.push(...parsed.objects);
    out.skipped.push(...parsed.skipped);
  }
  return out;
}

export function parseManifestText(text: string, source: string): LoadedFolder {
  const out: LoadedFolder = { objects: [], skipped: [] };
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new ManifestError(`${source}: ${doc.errors[0]!.message}`);
    const object = doc.toJSON() as unknown;
    if (object === null || object === undefined) continue;
    if (typeof object !== 'object' || Array.isArray(object))
      throw new ManifestError(`${source}: expected a Kubernetes object, got ${JSON.stringify(object)}`);
    const record = object as Record<string, unknown>;
    const kind = String(record.kind ?? '');
    if (!SERVED_KINDS.includes(kind)) {
      const name = (record.metadata as { name?: string; generateName?: string } | undefined) ?? {};
      const named = name.name
        ? name.name
        : name.generateName
          ? `with generateName ${name.generateName}`
          : 'without a name';
      out.skipped.push(`${source}: ${kind || 'object without a kind'} ${named}`);
      continue;
    }
    validateArgoObject(record, source);
    out.objects.push({ object: record, source });
  }
  return out;
}
