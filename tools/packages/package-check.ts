// What a packed @executor-plugins package must hold: compiled modules with their declarations and nothing of the
// sources or tests, every file its modules import, and exactly the dependencies they import.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

interface Manifest {
  name: string;
  engines?: { node?: string };
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The file a relative import of `from` names in the package, or undefined when it is not there. */
function resolveRelative(dir: string, from: string, specifier: string): string | undefined {
  const path = resolve(dir, dirname(from), specifier);
  const candidates = from.endsWith('.d.ts') ? [path.replace(/\.js$/, '.d.ts'), path] : [path];
  return candidates.find((c) => existsSync(c));
}

/** Every problem of the unpacked package in `dir` (the folder `npm pack` puts under package/), one line each. */
export function packageProblems(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  const files = filesBelow(dir);
  const problems: string[] = [];
  for (const required of ['README.md', 'LICENSE'])
    if (!files.includes(required)) problems.push(`${required} is missing`);
  if (!manifest.engines?.node) problems.push('package.json has no engines.node');
  for (const file of files) {
    if (file.endsWith('.ts') && !file.endsWith('.d.ts')) problems.push(`${file} is a source file`);
    if (/(^|\/)(test|__tests__)\/|\.(spec|test|e2e-spec)\.[cm]?[jt]s$/.test(file))
      problems.push(`${file} is a test`);
    if (file.endsWith('.js') && !files.includes(file.replace(/\.js$/, '.d.ts')))
      problems.push(`${file} has no declarations (${file.replace(/\.js$/, '.d.ts')})`);
  }
  for (const [subpath, target] of Object.entries(manifest.exports ?? {}))
    for (const path of typeof target === 'string' ? [target] : Object.values(target))
      if (!path.includes('*') && !existsSync(join(dir, path)))
        problems.push(`exports["${subpath}"]: ${path} is not in the package`);
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const imported = new Set<string>();
  for (const file of files.filter((f) => /\.(js|d\.ts)$/.test(f))) {
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(join(dir, file), 'utf8'), true, true)
      .importedFiles) {
      if (specifier.startsWith('.')) {
        if (!resolveRelative(dir, file, specifier))
          problems.push(`${file} imports ${specifier}, which is not in the package`);
      } else if (packageName(specifier) === manifest.name) {
        const rel = specifier.slice(manifest.name.length + 1);
        if (rel && !existsSync(join(dir, 'dist', rel)))
          problems.push(`${file} imports ${specifier}, which is not in the package`);
      } else if (!isBuiltin(specifier)) {
        imported.add(packageName(specifier));
        if (!declared.has(packageName(specifier)))
          problems.push(`${file} imports ${specifier}, but ${packageName(specifier)} is not a dependency`);
      }
    }
  }
  for (const name of Object.keys(manifest.dependencies ?? {}))
    if (!imported.has(name)) problems.push(`depends on ${name}, which no file imports`);
  return problems;
}
