import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Unknown-field detection for Kubernetes types, like Go's strict YAML decoding. The field lists come from the
 * interfaces @kubernetes-models declares (generated from the same OpenAPI as the Go structs): for a type we
 * read its .d.ts, collect its properties, and follow the imported interface types of each property.
 */
interface FieldInfo {
  /** Property name → the interface type of its value (or of its items / map values), if it is one. */
  fields: Map<string, { file: string; name: string } | undefined>;
  /** The type is a free-form map (`{ [key: string]: T }`). */
  freeForm: boolean;
}

const cache = new Map<string, FieldInfo>();

/** `node_modules/<package>/<subpath>.d.ts`, searched upwards from this file (package exports hide .d.ts from resolvers). */
function packageDeclaration(specifier: string): string {
  const parts = specifier.split('/');
  const pkg = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const subpath = parts.slice(specifier.startsWith('@') ? 2 : 1).join('/');
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', pkg, `${subpath.replace(/\.js$/, '')}.d.ts`);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`no type declarations for ${specifier}`);
  }
}

function parseDeclaration(file: string, interfaceName: string): FieldInfo {
  const cacheKey = `${file}#${interfaceName}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const text = readFileSync(file, 'utf8');
  const imports = new Map<string, string>();
  for (const m of text.matchAll(/import \{ ([^}]+) \} from "([^"]+)";/g)) {
    for (const name of m[1].split(',').map((s) => s.trim())) imports.set(name, m[2]);
  }
  // Interfaces are declared as `IContainer` and exported under aliases (`IContainer as IIoK8sApiCoreV1Container`).
  const local = new RegExp(`(\\w+) as ${interfaceName}\\b`).exec(text)?.[1] ?? interfaceName;
  const body = new RegExp(`export interface ${local}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(text)?.[1] ?? '';
  const info: FieldInfo = { fields: new Map(), freeForm: /^ {4}\[key: string\]/m.test(body) };
  for (const m of body.matchAll(/^\s+"([^"]+)"\??: ([^;]+);/gm)) {
    const typeNames = [...m[2].matchAll(/\b(I[A-Z]\w+)\b/g)].map((t) => t[1]);
    const ref = typeNames.find((t) => imports.has(t));
    info.fields.set(m[1], ref ? { file: resolveImport(file, imports.get(ref)!), name: ref } : undefined);
  }
  cache.set(cacheKey, info);
  return info;
}

function resolveImport(from: string, specifier: string): string {
  if (specifier.startsWith('.')) return join(dirname(from), specifier.replace(/\.js$/, '.d.ts'));
  return packageDeclaration(specifier);
}

const declarationFile = packageDeclaration;

/** Paths of fields in `value` that the type does not declare (`ports[0].bogus`). */
function unknownFields(value: unknown, file: string, name: string, path: string, out: string[]): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => unknownFields(item, file, name, `${path}[${i}]`, out));
    return;
  }
  const info = parseDeclaration(file, name);
  if (info.fields.size === 0) return; // an alias of a primitive/free-form type
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (!info.fields.has(key)) {
      if (!info.freeForm) out.push(childPath);
      continue;
    }
    const ref = info.fields.get(key);
    if (ref) unknownFields(child, ref.file, ref.name, childPath, out);
  }
}

/** Unknown fields of a core/v1 Container. */
export function unknownContainerFields(container: unknown, path = ''): string[] {
  const out: string[] = [];
  unknownFields(
    container,
    declarationFile('kubernetes-models/v1/Container'),
    'IIoK8sApiCoreV1Container',
    path,
    out,
  );
  return out;
}

/** Unknown fields of an ObjectMeta. */
export function unknownObjectMetaFields(meta: unknown, path = 'metadata'): string[] {
  const out: string[] = [];
  unknownFields(
    meta,
    declarationFile('@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta'),
    'IIoK8sApimachineryPkgApisMetaV1ObjectMeta',
    path,
    out,
  );
  return out;
}
