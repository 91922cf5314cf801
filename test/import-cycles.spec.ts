// No import circle in apps/ or libs/: a circle makes the order modules run in depend on which file is imported
// first (a class read before its module has run is undefined), and it is how "everything imports everything"
// starts. Every import counts, type-only and dynamic ones included, as a reader follows them all.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const repo = join(import.meta.dirname, '..');
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** What a source imports: static, type-only, side-effect and dynamic imports, and re-exports. */
function specifiers(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

/** The file an import names, or undefined for a package. */
function resolve(from: string, specifier: string): string | undefined {
  const lib = /^@app\/([a-z-]+)(?:\/(.*))?$/.exec(specifier);
  const base = lib
    ? join(repo, 'libs', lib[1]!, 'src', lib[2] ?? 'index.ts')
    : specifier.startsWith('.')
      ? join(dirname(from), specifier)
      : undefined;
  if (base === undefined) return undefined;
  const stem = base.replace(/\.js$/, '');
  return [`${stem}.ts`, base, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

function importGraph(roots: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap((root) => sources(join(repo, root)))) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((specifier) => resolve(file, specifier))
      .filter((to): to is string => to !== undefined);
    graph.set(
      relative(repo, file),
      [...new Set(targets)].map((to) => relative(repo, to)),
    );
  }
  return graph;
}

describe('imports', () => {
  it('finds a circle, through dynamic and type-only imports too', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      importCircles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads every kind of import of a file', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      'import {',
      '  c,',
      '  type C,',
      "} from '@app/contract';",
      "export * from './d.js';",
      "export { e } from './e.js';",
      "import './f.js';",
      "const g = async () => (await import('./g.js')).g;",
      "const text = 'not an import from \\'./h.js\\'';",
    ].join('\n');
    expect(specifiers(text)).toEqual([
      './a.js',
      '../b.js',
      '@app/contract',
      './d.js',
      './e.js',
      './f.js',
      './g.js',
    ]);
  });

  it('has no circle in apps/ or libs/', () => {
    expect(importCircles(importGraph(['apps', 'libs']))).toEqual([]);
  });
});
