#!/usr/bin/env node
// npm run bench: builds the production artefacts of every complete plugin (apps/<app> with src/main.ts whose
// build succeeds; its stand-ins from demo/upstreams.ts, when it has upstreams) into bench/.work/apps/<app> with the same function `npm run build`
// uses (tools/build.mjs buildApp), bundles the benchmark (bench/src, TypeScript) and each app's stand-in host,
// then runs the measurements (bench/src/main.ts checks the options before anything is built: `-- --help`).
// Builds go to bench/.work rather than dist/ so a run never swaps a bundle under someone else's test.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artefactBytes, buildApp, bundleEntry, checkoutBundleOptions } from '../tools/build.mjs';

const root = resolve(import.meta.dirname, '..');
const work = join(root, 'bench/.work');

const bundleOptions = checkoutBundleOptions(root);

function candidateApps(only) {
  const dir = join(root, 'apps');
  return (
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      // Executor plugins only (the shared agent has no manifests/<app>/plugin.yaml).
      .filter((app) => existsSync(join(root, 'manifests', app, 'plugin.yaml')))
      .filter((app) => only.length === 0 || only.includes(app))
      .sort()
  );
}

/** The import of an app's demo stand-ins, or of none for a plugin without demo/upstreams.ts (no upstream). */
function starterImport(src) {
  const demo = join(src, 'demo/upstreams.ts');
  return existsSync(demo)
    ? `import { startDemoUpstreams } from ${JSON.stringify(demo)};\n`
    : `import { noUpstreams as startDemoUpstreams } from ${JSON.stringify(join(root, 'libs/local-agent/src/demo/demo-upstreams.ts'))};\n`;
}

/** Builds every complete app (or only `only`) and returns the plan the benchmark measures. */
async function makePlan(only) {
  const plan = { root, work, apps: [], skipped: [] };
  const started = performance.now();
  for (const app of candidateApps(only)) {
    const src = join(root, 'apps', app);
    const missing = ['src/main.ts'].filter((f) => !existsSync(join(src, f)));
    if (missing.length > 0) {
      plan.skipped.push({ app, reason: `incomplete: no ${missing.join(', ')}` });
      continue;
    }
    try {
      const metafile = await buildApp(app, { outRoot: join(work, 'apps') });
      writeFileSync(join(work, `${app}.metafile.json`), JSON.stringify(metafile));
      const standIns = join(work, 'stand-ins', `${app}.mjs`);
      await build({
        ...bundleOptions,
        stdin: {
          contents:
            starterImport(src) +
            `import { hostStandIns } from ${JSON.stringify(join(root, 'bench/src/stand-in-host.ts'))};\n` +
            `void hostStandIns(startDemoUpstreams);\n`,
          resolveDir: root,
          sourcefile: `${app}-stand-ins.ts`,
          loader: 'ts',
        },
        outfile: standIns,
      });
      const conformance = join(src, 'test/conformance.json');
      plan.apps.push({
        app,
        dir: join(work, 'apps', app),
        entry: join(work, 'apps', app, 'main.js'),
        bytes: artefactBytes(join(work, 'apps', app)),
        standIns,
        conformance: existsSync(conformance) ? conformance : undefined,
      });
    } catch (err) {
      plan.skipped.push({ app, reason: `build failed: ${String(err.message).split('\n')[0]}` });
    }
  }
  // The event endpoint's stand-in forks the binding evaluator, which it looks for beside the stand-ins' folder.
  await build({
    ...bundleOptions,
    entryPoints: { 'events-evaluator': join(root, 'libs/events/src/evaluation/evaluator-process.ts') },
    outdir: work,
    outExtension: { '.js': '.mjs' },
  });
  // The kit's probe plugin (no upstream): the kit's own hot path, whatever the apps do.
  const probeDir = join(work, 'apps', 'kit-probe');
  await bundleEntry(join(root, 'libs/plugin-kit/test/fixtures/probe-main.ts'), probeDir, 'kit-probe');
  plan.probe = { dir: probeDir, entry: join(probeDir, 'main.js'), bytes: artefactBytes(probeDir) };
  plan.buildMs = Math.round(performance.now() - started);
  writeFileSync(join(work, 'plan.json'), JSON.stringify(plan, null, 2));
  console.error(
    `built ${plan.apps.map((a) => a.app).join(', ') || 'no app'} in ${plan.buildMs} ms` +
      plan.skipped.map((s) => `\n  skipped ${s.app}: ${s.reason}`).join(''),
  );
  return plan;
}

// The benchmark itself first (TypeScript, a fraction of a second): it answers --help and refuses a bad option
// before any plugin is built.
mkdirSync(work, { recursive: true });
await build({
  ...bundleOptions,
  entryPoints: [join(root, 'bench/src/main.ts')],
  outfile: join(work, 'bench.mjs'),
});
const { runBench } = await import(pathToFileURL(join(work, 'bench.mjs')).href);
const code = await runBench(process.argv.slice(2), makePlan);
process.exit(code ?? 0);
