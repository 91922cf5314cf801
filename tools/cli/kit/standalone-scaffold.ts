// npm run new-plugin -- <name> --upstream http|none --standalone <dir> [--tarballs <folder>]: the plugin in a
// repository of its own. Its sources are the kind's templates of the in-repo scaffold (imports of @app/<lib>
// become the @executor-plugins/<lib> packages); its tests (node:test, compiled by tsc: no test framework to
// install), Dockerfile, tsconfig and README come from tools/new-plugin/standalone; its manifests are generated as
// the repository's are.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import * as prettier from 'prettier';
import { collectionContext, formatFinding, writePluginPackage } from '@app/manifests';
import { PLUGIN_PEERS } from '../../packages/plugin-peers.mjs';
import { UsageError } from './args.js';
import { SCAFFOLD_KINDS, type ScaffoldKind } from './scaffold-kinds.js';
import { nextFreePort, scaffoldValues, templateFiles } from './scaffold-values.js';

const SCOPE = '@executor-plugins';
/** What the plugin's code imports, and what only its tests do. */
const PACKAGES = {
  dependencies: ['contract', 'plugin-kit'],
  devDependencies: ['local-agent', 'conformance'],
};
const DEV_TOOLS = ['@types/node', 'typescript'];

interface RepoPackage {
  version: string;
  license: string;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** Where each template lands in the new repository: `from` folders below `base`, to `to`. */
function sources(root: string, kind: ScaffoldKind, name: string): Map<string, string> {
  const templates = join(root, 'tools/new-plugin/templates');
  const standalone = join(root, 'tools/new-plugin/standalone');
  const places: Array<{ from: string; to: string; skip?: RegExp }> = [
    // Jest specs of the in-repo kind: the repository of its own has its node:test ones.
    { from: join(templates, 'common/app/src'), to: 'src' },
    { from: join(templates, kind, 'app/src'), to: 'src', skip: /\.spec\.ts\.tmpl$/ },
    { from: join(templates, kind, 'app/demo'), to: 'demo' },
    { from: join(templates, kind, 'app/test'), to: 'test', skip: /\.e2e-spec\.ts\.tmpl$/ },
    { from: join(templates, 'common/manifest'), to: `manifests/${name}` },
    { from: join(templates, kind, 'manifest'), to: `manifests/${name}` },
    { from: join(standalone, 'common'), to: '.' },
    { from: join(standalone, kind), to: '.' },
  ];
  const out = new Map<string, string>();
  for (const { from, to, skip } of places)
    if (existsSync(from))
      for (const file of templateFiles(from))
        if (!skip?.test(file)) out.set(join(to, relative(from, file)), file);
  return out;
}

/** package.json: the packages by version, or the tarballs copied into packages/. */
function packageJson(
  repo: RepoPackage,
  name: string,
  kind: ScaffoldKind,
  tarballs: Map<string, string>,
): string {
  const range = (pkg: string) => repo.dependencies[pkg] ?? repo.devDependencies[pkg];
  const ours = (libs: string[]) =>
    Object.fromEntries(
      libs.map((lib) => [
        `${SCOPE}/${lib}`,
        tarballs.has(lib) ? `file:packages/${tarballs.get(lib)}` : repo.version,
      ]),
    );
  const theirs = (names: string[]) => Object.fromEntries(names.map((n) => [n, range(n)]));
  return `${JSON.stringify(
    {
      name: `${name}-executor-plugin`,
      version: '0.1.0',
      private: true,
      description: `Argo Workflows executor plugin ${name}`,
      license: repo.license,
      type: 'module',
      engines: repo.engines,
      scripts: {
        build: 'tsc -p tsconfig.json',
        test: 'tsc -p tsconfig.json && node --test "dist/test/**/*.test.js"',
        conformance: 'tsc -p tsconfig.json && node --test dist/test/conformance.test.js',
        start: 'node dist/src/main.js',
      },
      dependencies: {
        ...ours(PACKAGES.dependencies),
        ...theirs([...PLUGIN_PEERS, ...(kind === 'http' ? ['axios'] : [])].sort()),
      },
      devDependencies: { ...ours(PACKAGES.devDependencies), ...theirs(DEV_TOOLS) },
    },
    null,
    2,
  )}\n`;
}

/** The tarballs of `folder` for the version, by library; all four must be there. */
function findTarballs(folder: string, version: string): Map<string, string> {
  const libs = [...PACKAGES.dependencies, ...PACKAGES.devDependencies];
  const found = new Map(libs.map((lib) => [lib, `executor-plugins-${lib}-${version}.tgz`]));
  const missing = [...found.values()].filter((f) => !existsSync(join(folder, f)));
  if (missing.length)
    throw new UsageError(`${folder} lacks ${missing.join(', ')} (npm run packages writes them)`);
  return found;
}

/** The rendered text of a template for the new repository. */
function adapt(path: string, text: string, version: string): string {
  if (path.endsWith('.ts')) return text.replaceAll("'@app/", `'${SCOPE}/`);
  if (basename(path) === 'plugin.yaml')
    // Its own image, and the entry point its Dockerfile installs.
    return text
      .replace(/image: ghcr\.io\/executor-plugins\/executor-plugins\/([a-z0-9-]+):\S+/, 'image: $1:0.1.0')
      .replace('/app/main.js', '/app/dist/src/main.js')
      .replace(`:${version}\n`, ':0.1.0\n');
  return text;
}

export async function scaffoldStandalone(
  root: string,
  name: string,
  kind: ScaffoldKind,
  target: string,
  tarballFolder: string | undefined,
): Promise<number> {
  if (kind === 'provider') throw new UsageError('--standalone scaffolds --upstream http or --upstream none');
  const dir = resolve(target);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UsageError(`${target} is not empty`);
  const repo = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as RepoPackage;
  const tarballs = tarballFolder
    ? findTarballs(resolve(tarballFolder), repo.version)
    : new Map<string, string>();
  const spec = SCAFFOLD_KINDS[kind];
  const port = nextFreePort(root);
  const { render } = scaffoldValues(root, name, spec, port);
  const prettierConfig = await prettier.resolveConfig(join(root, 'package.json'));
  const written: string[] = [];
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    written.push(path);
  };
  write('package.json', packageJson(repo, name, kind, tarballs));
  for (const [file, source] of sources(root, kind, name)) {
    const path = render(file).replace(/\.tmpl$/, '');
    let text = adapt(path, render(readFileSync(source, 'utf8')), repo.version);
    if (/\.(ts|json)$/.test(path)) text = await prettier.format(text, { ...prettierConfig, filepath: path });
    write(path, text);
  }
  for (const [, file] of tarballs) {
    copyFileSync(join(resolve(tarballFolder!), file), join(dir, 'packages', file));
    written.push(`packages/${file}`);
  }
  // The ConfigMap, README, RBAC and kustomization, as `npm run plugin:build` writes them in the repository.
  const { pkg, written: generated } = writePluginPackage(
    join(dir, 'manifests', name),
    collectionContext(dir),
  );
  for (const f of generated) if (!written.includes(relative(dir, f))) written.push(relative(dir, f));
  console.log(
    `created plugin "${name}" in ${target} (${spec.label}, a repository of its own; key ${name}, port ${port}):`,
  );
  for (const f of written) console.log(`  ${f}`);
  for (const finding of pkg.findings) console.log(`  note: ${formatFinding(finding)}`);
  console.log(`
  next:
    cd ${target} && npm install && npm test
    edit src/${name}.handler.ts and src/dto/${name}-config.dto.ts`);
  return 0;
}
