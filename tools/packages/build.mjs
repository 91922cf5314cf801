#!/usr/bin/env node
// npm run packages [-- --out <dir>]: the contract, the plugin kit and the local agent as npm packages, for a
// plugin kept in a repository of its own (`npm run new-plugin -- <name> --standalone <dir>`), and their
// tarballs (npm pack) in dist/packages, with the conformance kit's beside them.
//
// Each package holds its library's modules that its entry points reach (index.ts and the subpaths it documents),
// compiled one to one by swc as the repo's build compiles them (ES modules, decorator metadata), and their
// declarations (tsc). `@app/<lib>` imports become imports of the package of that library. argo-agent, of which
// only the local agent needs a few modules (the agent's RPC client and dispatch, the reply decoder, Go's JSON), is
// compiled into it under dist/internal/argo-agent: a package of its own would publish an API no plugin imports.
// Any other library reached is an error. dependencies are the third-party packages the compiled files import, at
// the lock file's exact versions; peerDependencies those a plugin brings itself (Nest, class-validator,
// class-transformer, reflect-metadata, rxjs; the kit for the local agent, so that both use one copy), at the
// repo's ranges.
import { transform } from '@swc/core';
import { swcOptions } from '../build.mjs';
import { PLUGIN_PEERS } from './plugin-peers.mjs';
import ts from 'typescript';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const repoPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

export const SCOPE = '@executor-plugins';

/** The packages, in dependency order. `entries` are below the library's src; `data` are copied from the library. */
export const PACKAGES = [
  {
    lib: 'contract',
    description:
      'The wire contract between Argo Workflows and an executor plugin: request and reply types, phases, durations',
    entries: ['index.ts'],
    peers: [],
  },
  {
    lib: 'plugin-kit',
    description:
      'Writes an Argo Workflows executor plugin as a Nest module: contract server, token guard, ledger, config checks',
    entries: [
      'index.ts',
      'upstream/http-client.ts',
      'config/plugin-config.ts',
      'config/env-rules.ts',
      'providers/provider-context.ts',
      'providers/provider-blocks.ts',
    ],
    peers: PLUGIN_PEERS,
  },
  {
    lib: 'local-agent',
    description:
      "Runs an executor plugin and Argo workflows on it without a cluster, as Argo's agent calls it; stand-ins",
    entries: ['index.ts'],
    internal: ['argo-agent'],
    data: ['argo'],
    peers: [`${SCOPE}/plugin-kit`],
  },
];

const packaged = new Set(PACKAGES.map((p) => p.lib));

/** The source file an import names, or undefined for a package of node_modules. */
function sourceOf(specifier, fromFile) {
  let path;
  const alias = /^@app\/([a-z-]+)(?:\/(.*))?$/.exec(specifier);
  if (alias) path = join(root, 'libs', alias[1], 'src', alias[2] ?? 'index.js');
  else if (specifier.startsWith('.')) path = resolve(dirname(fromFile), specifier);
  else return undefined;
  for (const candidate of [path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.d.ts'), path])
    if (existsSync(candidate) && candidate.match(/\.(ts|json)$/)) return candidate;
  throw new Error(`${relative(root, fromFile)}: '${specifier}' is no file`);
}

/** Which library a source file belongs to. */
const libOf = (file) => /^libs\/([a-z-]+)\/src\//.exec(relative(root, file))?.[1];

const specifiersOf = (text) => ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);

/** Every source file of `spec`'s package: its entries and what they import of its own and its internal libs. */
function collect(spec) {
  const own = new Set([spec.lib, ...(spec.internal ?? [])]);
  const files = new Set();
  const visit = (file) => {
    if (files.has(file)) return;
    files.add(file);
    if (!file.endsWith('.ts')) return;
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      const target = sourceOf(specifier, file);
      if (!target) continue;
      const lib = libOf(target);
      if (own.has(lib)) visit(target);
      else if (!packaged.has(lib))
        throw new Error(
          `${relative(root, file)} imports '${specifier}': libs/${lib} is neither a package nor compiled into ${spec.lib}`,
        );
    }
  };
  for (const entry of spec.entries) visit(join(root, 'libs', spec.lib, 'src', entry));
  return [...files];
}

/** Where a source file of the package lands, relative to the package's root, without extension. */
function placeOf(spec, file) {
  const lib = libOf(file);
  const rel = relative(join(root, 'libs', lib, 'src'), file).replace(/(\.d)?\.ts$/, '');
  return lib === spec.lib ? join('dist', rel) : join('dist/internal', lib, rel);
}

/** Rewrites one module's imports (compiled JS or declarations) for the package: to packages or relative files. */
function rewriteImports(spec, sourceFile, outFile, text) {
  const rewritten = text.replace(
    /((?:from|import|require)\s*\(?\s*)(['"])([^'"\n]+)\2/g,
    (whole, lead, quote, specifier) => {
      const target = sourceOf(specifier, sourceFile);
      if (!target) return whole;
      const lib = libOf(target);
      let to;
      if (packaged.has(lib) && (lib !== spec.lib || specifier.startsWith('@app/'))) {
        // Another package, or this one by its own name (a message naming the import a plugin writes).
        const rel = relative(join(root, 'libs', lib, 'src'), target).replace(/(\.d)?\.ts$/, '.js');
        to = rel === 'index.js' ? `${SCOPE}/${lib}` : `${SCOPE}/${lib}/${rel}`;
      } else {
        to = relative(dirname(outFile), placeOf(spec, target) + (target.endsWith('.json') ? '' : '.js'));
        if (!to.startsWith('.')) to = `./${to}`;
      }
      return `${lead}${quote}${to}${quote}`;
    },
  );
  // What comments and messages name: the import a plugin writes.
  return rewritten.replace(/@app\/(contract|plugin-kit|local-agent)\b/g, `${SCOPE}/$1`);
}

/** Declarations of every file, by source path (one program for all packages: the checker runs once). */
function declarations(files) {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, ts.sys);
  const out = new Map();
  const program = ts.createProgram(files, {
    ...config.options,
    declaration: true,
    emitDeclarationOnly: true,
    sourceMap: false,
    declarationMap: false,
    noEmit: false,
    outDir: join(root, 'dist/.package-types'),
  });
  const result = program.emit(
    undefined,
    (name, text, _bom, _onError, sources) => {
      if (name.endsWith('.d.ts') && sources?.[0]) out.set(resolve(sources[0].fileName), text);
    },
    undefined,
    true,
  );
  const problems = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (problems.length)
    throw new Error(
      ts.formatDiagnostics(problems, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => root,
        getNewLine: () => '\n',
      }),
    );
  return out;
}

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** The package names a file imports from node_modules. */
export function importedPackages(text) {
  return specifiersOf(text)
    .filter((s) => !s.startsWith('.') && !builtins.has(s) && !s.startsWith('node:'))
    .map((s) =>
      s
        .split('/')
        .slice(0, s.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

function lockedVersion(name) {
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return version;
}

const LICENSE_SOURCE = join(root, 'LICENSE');

function packageJson(spec, imported) {
  const own = `${SCOPE}/${spec.lib}`;
  const dependencies = {};
  const peerDependencies = {};
  for (const name of [...imported].filter((n) => n !== own).sort()) {
    if (name.startsWith(`${SCOPE}/`)) {
      (spec.peers.includes(name) ? peerDependencies : dependencies)[name] = repoPackage.version;
    } else if (spec.peers.includes(name)) {
      peerDependencies[name] = repoPackage.dependencies[name] ?? `^${lockedVersion(name)}`;
    } else dependencies[name] = lockedVersion(name);
  }
  // A peer the code reaches only through another peer (rxjs, reflect-metadata for Nest) is still the plugin's to bring.
  for (const name of spec.peers)
    if (!(name in peerDependencies) && !name.startsWith(`${SCOPE}/`))
      peerDependencies[name] = repoPackage.dependencies[name] ?? `^${lockedVersion(name)}`;
  return {
    name: own,
    version: repoPackage.version,
    description: spec.description,
    license: repoPackage.license,
    type: 'module',
    engines: repoPackage.engines,
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './*.js': { types: './dist/*.d.ts', default: './dist/*.js' },
      './package.json': './package.json',
    },
    types: './dist/index.d.ts',
    files: ['dist', ...(spec.data ?? []), 'README.md', 'LICENSE'],
    dependencies,
    ...(Object.keys(peerDependencies).length ? { peerDependencies } : {}),
    sideEffects: false,
  };
}

/** Writes each package into `<out>/<lib>` and answers their folders. */
export async function buildPackages(out = join(root, 'dist/packages')) {
  const sources = PACKAGES.map((spec) => ({ spec, files: collect(spec) }));
  const types = declarations([...new Set(sources.flatMap((s) => s.files.filter((f) => f.endsWith('.ts'))))]);
  const dirs = [];
  for (const { spec, files } of sources) {
    const dir = join(out, spec.lib);
    rmSync(dir, { recursive: true, force: true });
    const imported = new Set();
    const emit = (path, text) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
      for (const name of importedPackages(text)) imported.add(name);
    };
    for (const file of files) {
      const place = placeOf(spec, file);
      if (file.endsWith('.json')) {
        emit(`${place}.json`, readFileSync(file, 'utf8'));
        continue;
      }
      // No source maps: they would carry the sources.
      const { code } = await transform(readFileSync(file, 'utf8'), swcOptions(file, false));
      emit(`${place}.js`, rewriteImports(spec, file, `${place}.js`, code));
      const dts = types.get(file);
      if (dts === undefined) throw new Error(`no declarations for ${relative(root, file)}`);
      emit(`${place}.d.ts`, rewriteImports(spec, file, `${place}.d.ts`, dts));
    }
    for (const data of spec.data ?? [])
      cpSync(join(root, 'libs', spec.lib, data), join(dir, data), { recursive: true });
    copyFileSync(join(import.meta.dirname, `${spec.lib}.README.md`), join(dir, 'README.md'));
    copyFileSync(LICENSE_SOURCE, join(dir, 'LICENSE'));
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(packageJson(spec, imported), null, 2)}\n`);
    dirs.push(dir);
  }
  return dirs;
}

/** `npm pack` of each folder into `destination`; answers the tarballs' paths. */
export function packAll(dirs, destination) {
  mkdirSync(destination, { recursive: true });
  return dirs.map((dir) => {
    const [{ filename }] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--silent', '--pack-destination', destination], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    return join(destination, filename);
  });
}

async function main() {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? resolve(process.argv[at + 1]) : join(root, 'dist/packages');
  const started = performance.now();
  const dirs = await buildPackages(out);
  const tarballs = packAll([...dirs, join(root, 'tools/conformance')], join(out, 'tarballs'));
  for (const t of tarballs) console.log(relative(process.cwd(), t));
  console.error(`packed ${tarballs.length} packages in ${(performance.now() - started).toFixed(0)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
