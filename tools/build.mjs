#!/usr/bin/env node
// Production build. Each app under apps/ becomes dist/apps/<app>/main.js: an ES module that runs with plain
// `node` and no node_modules. The contract front (auth, routing, body, dispatch) is in main.js; the plugin's
// Nest module, its SDK clients and everything else the first own-template call needs live in chunks/ and are
// loaded on that call, so an idle sidecar never pays for them. CLIs under tools/cli/ become dist/tools/<cli>.mjs
// and use the repo's node_modules.
//
// TypeScript is compiled by swc (esbuild cannot emit the decorator metadata Nest's DI relies on); type
// checking is `npm run typecheck`.
import { build } from 'esbuild';
import { transform } from '@swc/core';
import { randomBytes } from 'node:crypto';
import { readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

/** How swc compiles our TypeScript: legacy decorators + design:* metadata, like tsc with emitDecoratorMetadata. */
export const swcOptions = (filename, sourceMaps = 'inline') => ({
  filename,
  sourceMaps,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
});

/** swc for our own TypeScript, in esbuild. */
export const swcTypeScript = {
  name: 'swc-typescript',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      if (path.includes('node_modules')) return undefined;
      const source = await readFile(path, 'utf8');
      const out = await transform(source, swcOptions(path));
      return { contents: out.code, loader: 'js' };
    });
  },
};

/** class-validator statically imports libphonenumber-js (13 MB of tables) for @IsPhoneNumber, which no plugin uses. */
const noPhoneTables = {
  name: 'no-phone-tables',
  setup(b) {
    b.onResolve({ filter: /^libphonenumber-js(\/.*)?$/ }, () => ({
      path: 'libphonenumber-js',
      namespace: 'stub',
    }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents:
        'const unsupported = () => { throw new Error("phone number validation is not included in this build"); };\n' +
        'export const parsePhoneNumber = unsupported; export const parsePhoneNumberWithError = unsupported; export default unsupported;\n',
      loader: 'js',
    }));
  },
};

/**
 * Nest's ValidationPipe and ClassSerializerInterceptor `import('class-validator')` / `import('class-transformer')`
 * when they are constructed, which no plugin does. A dynamic import keeps every export of the package, and since
 * the front imports the same package, all of class-validator (and validator.js through IsStrongPassword) landed in
 * the chunk loaded at start-up: 500 KB parsed before listening instead of 240 KB. These imports get a stub.
 */
const nestUnusedValidation = {
  name: 'nest-unused-validation',
  setup(b) {
    b.onResolve({ filter: /^class-(validator|transformer)$/ }, (args) =>
      args.kind === 'dynamic-import' && /node_modules[\\/]@nestjs[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'nest-unused' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'nest-unused' }, ({ path }) => ({
      contents: `throw new Error(${JSON.stringify(`${path} is not in this bundle: no plugin uses Nest's ValidationPipe or ClassSerializerInterceptor`)});\n`,
      loader: 'js',
    }));
  },
};

/**
 * `virtual:app-demos`: every executor plugin (an app with manifests/<app>/plugin.yaml), with a lazy import of its
 * apps/<app>/demo/upstreams.ts, or null for a plugin that calls no upstream and has none: the demo finds plugins
 * by their manifest (no list to keep in sync).
 */
const appDemos = {
  name: 'app-demos',
  setup(b) {
    b.onResolve({ filter: /^virtual:app-demos$/ }, () => ({ path: 'app-demos', namespace: 'virtual' }));
    b.onLoad({ filter: /.*/, namespace: 'virtual' }, async () => {
      const apps = (await listDirs(join(root, 'apps'))).filter((a) =>
        existsSync(join(root, 'manifests', a, 'plugin.yaml')),
      );
      const entries = apps.map((a) => {
        const demo = join(root, 'apps', a, 'demo/upstreams.ts');
        return `  ${JSON.stringify(a)}: ${existsSync(demo) ? `() => import(${JSON.stringify(demo)})` : 'null'},`;
      });
      return {
        contents: `export const appDemos = {\n${entries.join('\n')}\n};\n`,
        loader: 'js',
        resolveDir: root,
      };
    });
  },
};

/**
 * class-validator's index both defines `validateSync` and re-exports every decorator, and esbuild places a module by
 * the entry points that reach it through any import: through the index, the start path reached all 80 decorators
 * and the validator.js functions they wrap (IsEmail, IsISO8601, ...), which only plugin bodies use, so they were
 * parsed and run before listening. Each of our imports of `class-validator` is served instead by the package's own
 * modules that define the names it imports; an import of a name found in none of them keeps the index.
 */
const classValidatorModules = {
  name: 'class-validator-modules',
  setup(b) {
    const dir = join(root, 'node_modules/class-validator/esm5');
    let where;
    const definedIn = () => {
      if (where) return where;
      where = new Map();
      const seen = new Map();
      const scan = (d) => {
        for (const entry of readdirSync(d, { withFileTypes: true })) {
          const path = join(d, entry.name);
          if (entry.isDirectory()) scan(path);
          else if (entry.name.endsWith('.js') && path !== join(dir, 'index.js')) {
            const text = readFileSync(path, 'utf8');
            const names = [
              ...[...text.matchAll(/^export (?:function|var|const|let|class) ([\w$]+)/gm)].map((m) => m[1]),
              ...[...text.matchAll(/^export \{([^}]+)\};?$/gm)].flatMap((m) =>
                m[1].split(',').map((n) =>
                  n
                    .trim()
                    .split(/\s+as\s+/)
                    .at(-1),
                ),
              ),
            ];
            for (const name of names) seen.set(name, seen.has(name) ? null : path);
          }
        }
      };
      scan(dir);
      for (const [name, path] of seen) if (path) where.set(name, path);
      return where;
    };
    b.onResolve({ filter: /^class-validator$/ }, (args) => {
      if (
        args.kind !== 'import-statement' ||
        args.importer.includes('node_modules') ||
        !args.importer.endsWith('.ts')
      )
        return undefined;
      const source = readFileSync(args.importer, 'utf8');
      const named = [...source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]class-validator['"]/g)];
      // A default or namespace import, or a re-export, wants the whole index.
      if (named.length !== source.match(/from\s*['"]class-validator['"]/g)?.length) return undefined;
      const names = named
        .filter((m) => !m[1])
        .flatMap((m) => m[2].split(',').map((n) => n.trim()))
        .filter((n) => n && !n.startsWith('type '));
      const lines = [];
      for (const name of new Set(names)) {
        if (name === 'validateSync') {
          // As the index defines it.
          lines.push(
            `import { getFromContainer as __c } from ${JSON.stringify(join(dir, 'container.js'))};`,
            `import { Validator as __V } from ${JSON.stringify(join(dir, 'validation/Validator.js'))};`,
            'export function validateSync(a, b, c) { return typeof a === "string" ? __c(__V).validateSync(a, b, c) : __c(__V).validateSync(a, b); }',
          );
          continue;
        }
        const path = definedIn().get(name);
        if (!path) return undefined;
        lines.push(`export { ${name} } from ${JSON.stringify(path)};`);
      }
      return {
        path: `${args.importer}:class-validator`,
        namespace: 'class-validator-modules',
        pluginData: lines.join('\n'),
      };
    });
    b.onLoad({ filter: /.*/, namespace: 'class-validator-modules' }, ({ pluginData }) => ({
      contents: pluginData,
      resolveDir: dir,
      loader: 'js',
    }));
  },
};

// Optional Nest integrations that are never used by a plugin sidecar but are referenced behind lazy requires.
const nestOptional = [
  '@nestjs/microservices',
  '@nestjs/microservices/*',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  'class-transformer/storage',
  'file-type',
];

const requireShim =
  "import { createRequire as __kitCreateRequire } from 'node:module'; const require = __kitCreateRequire(import.meta.url);";

/**
 * The banner's `require` serves bundled CommonJS code (esbuild's `__require`); a chunk without any keeps no
 * banner, as each would cost a `createRequire` while the sidecar starts.
 */
async function dropUnusedRequireShim(metafile) {
  for (const out of Object.keys(metafile.outputs)) {
    if (!out.endsWith('.js')) continue;
    const path = resolve(root, out);
    const text = await readFile(path, 'utf8');
    if (!text.startsWith(requireShim)) continue;
    const body = text.slice(requireShim.length).replace(/^\n/, '');
    if (!/\brequire\b/.test(body)) await writeFile(path, body);
  }
}

/** A path as an ES import writes it, from `dir` to `file`. */
const importPath = (dir, file) => {
  const path = relative(dir, file).split('\\').join('/');
  return path.startsWith('.') ? path : `./${path}`;
};

/**
 * esbuild puts the code a sidecar runs before it listens into one chunk per set of entry points sharing it (the
 * collection's start path was main.js and 6 chunks), and Node's ES module loader costs ~0.3 ms per module before
 * any of it runs (resolve, read, link). main.js becomes the whole start path in one module; it exports what the
 * lazily loaded chunks import from the merged chunks, and they import it from there (`../main.js`: the entry's
 * own instance, already evaluated when they load: an entry must not await a lazy chunk at its top level, or each
 * would wait for the other). Two chunks may export the same name (each chunk's exports are
 * its own), so main.js exports each under an alias that names its chunk, and the importers' clauses are rewritten
 * to those aliases.
 */
async function mergeStartPath(outdir, metafile) {
  const main = join(outdir, 'main.js');
  const start = new Set();
  const visit = (key) => {
    for (const { path, kind, external } of metafile.outputs[key]?.imports ?? [])
      if (kind === 'import-statement' && !external && !start.has(path)) {
        start.add(path);
        visit(path);
      }
  };
  visit(relative(root, main));
  if (start.size === 0) return;
  const chunks = [...start].map((key, i) => ({
    file: resolve(root, key),
    exports: metafile.outputs[key].exports,
    alias: (name) => `${name}$${i}`,
  }));
  const startFiles = new Set(chunks.map((c) => c.file));
  const reexports = chunks
    .filter((c) => c.exports.length > 0)
    .map(
      (c) =>
        `export { ${c.exports.map((n) => `${n} as ${c.alias(n)}`).join(', ')} } from ${JSON.stringify(importPath(outdir, c.file))};`,
    );
  const merged = await build({
    absWorkingDir: outdir,
    stdin: {
      contents: ["import './main.js';", ...reexports].join('\n'),
      resolveDir: outdir,
      sourcefile: 'start-path.js',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    legalComments: 'none',
    minifySyntax: true,
    minifyWhitespace: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'lazy-chunks-stay',
        setup(b) {
          b.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir }) => {
            const file = resolve(resolveDir, path);
            if (startFiles.has(file) || file === main) return undefined;
            return { path: importPath(outdir, file), external: true };
          });
        },
      },
    ],
  });
  await writeFile(main, merged.outputFiles[0].text);
  for (const file of startFiles) await rm(file);
  for (const key of Object.keys(metafile.outputs)) {
    const file = resolve(root, key);
    if (!file.endsWith('.js') || startFiles.has(file) || file === main) continue;
    const text = await readFile(file, 'utf8');
    const target = JSON.stringify(importPath(dirname(file), main));
    let out = text;
    for (const chunk of chunks) {
      const quoted = JSON.stringify(importPath(dirname(file), chunk.file));
      const from = quoted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      out = out
        .replace(new RegExp(`import\\{([^}]*)\\}from${from}`, 'g'), (_, list) => {
          const names = list.split(',').map((spec) => {
            const [imported, local = imported] = spec.trim().split(' as ');
            return `${chunk.alias(imported)} as ${local}`;
          });
          return `import{${names.join(',')}}from${target}`;
        })
        .replace(new RegExp(`import${from}`, 'g'), `import${target}`);
      if (out.includes(quoted))
        throw new Error(
          `${key} imports ${basename(chunk.file)} in a form the start-path merge does not rewrite`,
        );
    }
    if (out !== text) await writeFile(file, out);
  }
}

/** Bytes of everything an app's image ships (the whole dist/apps/<app> folder). */
export function artefactBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? artefactBytes(path) : statSync(path).size;
  }
  return total;
}

async function listDirs(dir) {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

export async function buildApp(app, { outRoot = join(root, 'dist/apps') } = {}) {
  return bundleEntry(join(root, 'apps', app, 'src/main.ts'), join(outRoot, app), app);
}

/**
 * Bundles one plugin entry into `outdir` (main.js + chunks/ + package.json), runnable without node_modules. It is
 * built beside `outdir` and moved into place only when it differs from what is there: a process starting from
 * `outdir` meanwhile (a suite's plugin, a running one loading a chunk) never finds it half written or gone, and a
 * build of unchanged sources writes nothing.
 */
export async function bundleEntry(entry, outdir, name = 'plugin') {
  const staging = join(
    dirname(outdir),
    `.${basename(outdir)}.building-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  try {
    const metafile = await bundleInto(entry, staging, name);
    await replaceIfChanged(staging, outdir);
    const from = relative(root, staging);
    const to = relative(root, outdir);
    return JSON.parse(
      JSON.stringify(metafile).replaceAll(JSON.stringify(from).slice(1, -1), JSON.stringify(to).slice(1, -1)),
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Every file below `dir`, relative to it, sorted. */
async function filesBelow(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => undefined);
  if (!entries) return undefined;
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

async function sameTree(a, b) {
  const [left, right] = await Promise.all([filesBelow(a), filesBelow(b)]);
  if (!left || !right || left.join('\n') !== right.join('\n')) return false;
  for (const file of left) {
    const [x, y] = await Promise.all([readFile(join(a, file)), readFile(join(b, file))]);
    if (!x.equals(y)) return false;
  }
  return true;
}

/** Puts the tree `staging` at `outdir` unless `outdir` already holds the same files (two builds may race). */
async function replaceIfChanged(staging, outdir) {
  for (let attempt = 0; ; attempt++) {
    if (await sameTree(staging, outdir)) return;
    const old = `${staging}.old`;
    await rename(outdir, old).catch((err) => {
      if (err.code !== 'ENOENT') throw err;
    });
    try {
      await rename(staging, outdir);
      await rm(old, { recursive: true, force: true });
      return;
    } catch (err) {
      // Another build put its tree there between the two renames: compare with that one.
      if (!['ENOTEMPTY', 'EEXIST'].includes(err.code) || attempt >= 4) throw err;
      await rm(old, { recursive: true, force: true });
    }
  }
}

async function bundleInto(entry, outdir, name) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: entry },
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    mainFields: ['module', 'main'],
    tsconfig: join(root, 'tsconfig.json'),
    external: nestOptional,
    banner: { js: requireShim },
    plugins: [swcTypeScript, noPhoneTables, nestUnusedValidation, classValidatorModules],
    legalComments: 'none',
    minifySyntax: true,
    minifyWhitespace: true,
    keepNames: false,
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.EXECUTOR_PLUGINS_VERSION': JSON.stringify(pkg.version) },
  });
  await dropUnusedRequireShim(result.metafile);
  await mergeStartPath(outdir, result.metafile);
  await writeFile(
    join(outdir, 'package.json'),
    JSON.stringify(
      { name: `@executor-plugins/${name}`, version: pkg.version, type: 'module', private: true },
      null,
      2,
    ) + '\n',
  );
  return result.metafile;
}

/**
 * How the repo's TypeScript runs under Node from this checkout (the CLIs, the benchmarks): one ES module for
 * Node 24, packages left to node_modules, the repo's tsconfig paths and decorators (swc), inline source maps.
 */
export function checkoutBundleOptions(repoRoot = root) {
  return {
    absWorkingDir: repoRoot,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    packages: 'external',
    tsconfig: join(repoRoot, 'tsconfig.json'),
    plugins: [swcTypeScript],
    sourcemap: 'inline',
    logLevel: 'warning',
  };
}

export async function buildTools({ outdir = join(root, 'dist/tools') } = {}) {
  const dir = join(root, 'tools/cli');
  if (!existsSync(dir)) return;
  const clis = (await readdir(dir)).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
  await build({
    ...checkoutBundleOptions(),
    entryPoints: {
      ...Object.fromEntries(clis.map((c) => [c, join(dir, `${c}.ts`)])),
      // Forked by `events serve|test` to evaluate binding expressions (found next to the chunks' folder).
      'events-evaluator': join(root, 'libs/events/src/evaluation/evaluator-process.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    // Shared code and what a CLI imports dynamically go to chunks/: `--help` loads only the CLI itself.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [swcTypeScript, appDemos],
    define: { 'process.env.EXECUTOR_PLUGINS_VERSION': JSON.stringify(pkg.version) },
  });
}

/**
 * Builds dist/apps/<app> for the apps named in `only` (every app when empty), and the tools with `tools`;
 * answers the line that says what was built (`built event-emitter 1184 KiB + tools in 2300 ms`).
 */
export async function buildApps(only = [], { tools = false } = {}) {
  const apps = (await listDirs(join(root, 'apps'))).filter((a) =>
    existsSync(join(root, 'apps', a, 'src/main.ts')),
  );
  const started = performance.now();
  const selected = only.length ? apps.filter((a) => only.includes(a)) : apps;
  await Promise.all([...selected.map((a) => buildApp(a)), tools ? buildTools() : null]);
  const sizes = selected.map(
    (a) => `${a} ${(artefactBytes(join(root, 'dist/apps', a)) / 1024).toFixed(0)} KiB`,
  );
  return `built ${sizes.join(', ') || 'no apps'}${tools ? ' + tools' : ''} in ${(performance.now() - started).toFixed(0)} ms`;
}

async function main() {
  const only = process.argv.slice(2);
  console.error(await buildApps(only, { tools: only.length === 0 }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
