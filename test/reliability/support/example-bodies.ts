import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from './targets.js';

interface Param {
  name: string;
  value?: unknown;
  default?: unknown;
}

interface Template {
  inputs?: { parameters?: Param[] };
  plugin?: Record<string, unknown>;
}

/**
 * The plugin bodies of manifests/<app>/examples/*.yaml (every provider and field the docs show), with
 * `{{inputs.parameters.x}}` and `{{workflow.parameters.x}}` filled from the example's own values and
 * defaults, and any other tag replaced by a plain word.
 */
export function exampleBodies(app: string, key: string): Array<Record<string, unknown>> {
  const dir = join(repoRoot, 'manifests', app, 'examples');
  if (!existsSync(dir)) return [];
  const bodies = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const wf = doc.toJSON() as {
        spec?: { arguments?: { parameters?: Param[] }; templates?: Template[] };
      } | null;
      const globals = new Map((wf?.spec?.arguments?.parameters ?? []).map((p) => [p.name, p.value]));
      for (const template of wf?.spec?.templates ?? []) {
        const body = template.plugin?.[key];
        if (body === undefined || body === null || typeof body !== 'object') continue;
        const inputs = new Map(
          (template.inputs?.parameters ?? []).map((p) => [p.name, p.value ?? p.default]),
        );
        const text = JSON.stringify(body).replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_m, tag: string) => {
          const [scope, kind, name] = tag.split('.');
          const value =
            scope === 'inputs' && kind === 'parameters'
              ? inputs.get(name)
              : scope === 'workflow' && kind === 'parameters'
                ? globals.get(name)
                : undefined;
          const plain = value === undefined || value === null ? 'example' : String(value);
          return JSON.stringify(plain).slice(1, -1);
        });
        bodies.set(text, JSON.parse(text) as Record<string, unknown>);
      }
    }
  }
  return [...bodies.values()];
}
