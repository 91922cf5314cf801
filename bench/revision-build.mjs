#!/usr/bin/env node
// npm run bench -- --baseline <rev>: builds the plugins of that revision, in its own copy of the tree (DIR, made by
// bench/src/revision.ts), with that revision's own build (its tools/build.mjs and esbuild) and its own demo
// stand-ins, the way its bench/run.mjs would. Writes DIR/bench/.work/revision-plan.json: { apps: [{ app, entry,
// standIns }] }, an app whose build fails left out with its reason.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2]);
const work = join(dir, 'bench/.work');
const { buildApp, checkoutBundleOptions } = await import(pathToFileURL(join(dir, 'tools/build.mjs')).href);
const { build } = createRequire(join(dir, 'package.json'))('esbuild');

const apps = readdirSync(join(dir, 'apps'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(dir, 'manifests', e.name, 'plugin.yaml')))
  .map((e) => e.name)
  .filter((app) => ['src/main.ts', 'demo/upstreams.ts'].every((f) => existsSync(join(dir, 'apps', app, f))))
  .sort();
const plan = { apps: [], skipped: [] };
mkdirSync(join(work, 'stand-ins'), { recursive: true });
for (const app of apps) {
  try {
    await buildApp(app, { outRoot: join(work, 'apps') });
    const standIns = join(work, 'stand-ins', `${app}.mjs`);
    await build({
      ...checkoutBundleOptions(dir),
      stdin: {
        contents:
          `import { startDemoUpstreams } from ${JSON.stringify(join(dir, 'apps', app, 'demo/upstreams.ts'))};\n` +
          `import { hostStandIns } from ${JSON.stringify(join(dir, 'bench/src/stand-in-host.ts'))};\n` +
          `void hostStandIns(startDemoUpstreams);\n`,
        resolveDir: dir,
        sourcefile: `${app}-stand-ins.ts`,
        loader: 'ts',
      },
      outfile: standIns,
    });
    plan.apps.push({ app, entry: join(work, 'apps', app, 'main.js'), standIns });
  } catch (err) {
    plan.skipped.push({ app, reason: `build failed: ${String(err.message).split('\n')[0]}` });
  }
}
// The event endpoint's stand-in forks the binding evaluator, which it looks for beside the stand-ins' folder.
const evaluator = join(dir, 'libs/events/src/evaluation/evaluator-process.ts');
if (existsSync(evaluator))
  await build({
    ...checkoutBundleOptions(dir),
    entryPoints: { 'events-evaluator': evaluator },
    outdir: work,
    outExtension: { '.js': '.mjs' },
  });
writeFileSync(join(work, 'revision-plan.json'), JSON.stringify(plan, null, 2));
