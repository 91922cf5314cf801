// npm run demo: runs every example workflow (manifests/*/examples/*.yaml) through the local agent against the
// built plugins (dist/apps/<app>/main.js), each pointed at its local upstream stand-ins. Like a real agent pod,
// every plugin is offered every plugin template. Then the same examples again against one collection sidecar
// (dist/apps/collection) hosting every plugin. Exit 1 if an example does not end as expected.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { appDemos } from 'virtual:app-demos';
import {
  loadManifestFile,
  renderResult,
  runWorkflow,
  startPluginProcess,
  type DemoContext,
  type DemoUpstreams,
  type PluginProcess,
} from '@app/testing';

const root = resolve(import.meta.dirname, '../..');
const EXPECT_ANNOTATION = 'executor-plugins.dev/demo-expect';

const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    'time-scale': { type: 'string', default: '0.05' },
    verbose: { type: 'boolean', short: 'v', default: false },
  },
});
const timeScale = Number(values['time-scale']);

function agentToken(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return [...randomBytes(32)].map((b) => alphabet[b % alphabet.length]).join('');
}

type Result = [string, string, string, number];

/** Runs every example workflow of the apps against `context.plugins`; results are labelled with `label`. */
async function runExamples(
  apps: string[],
  context: DemoContext,
  label: string,
  results: Result[],
  fail: () => void,
): Promise<void> {
  for (const app of apps) {
    const examples = join(root, 'manifests', app, 'examples');
    if (!existsSync(examples)) continue;
    for (const file of readdirSync(examples)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()) {
      const path = join(examples, file);
      const loaded = loadManifestFile(path);
      for (const wf of loaded.workflows) {
        const expected = wf.metadata.annotations?.[EXPECT_ANNOTATION] ?? 'Succeeded';
        const started = Date.now();
        const result = await runWorkflow(wf, {
          plugins: context.plugins,
          templates: loaded.templates,
          timeScale,
        });
        console.log(`── ${relative(root, path)} (${label}) ──`);
        console.log(renderResult(result));
        const ok = result.phase === expected;
        if (!ok) fail();
        results.push([
          `${relative(root, path)} [${label}]`,
          result.phase,
          ok ? 'as expected' : `expected ${expected}`,
          Date.now() - started,
        ]);
      }
    }
  }
}

async function stopProcess(proc: PluginProcess, fail: () => void): Promise<void> {
  const code = await proc.stop();
  console.log(
    `stopped ${proc.name}: exit ${code}, ${proc.logs.length} log lines${values.verbose ? `\n${proc.output()}` : ''}`,
  );
  if (code !== 0) fail();
}

async function main(): Promise<number> {
  // The collection hosts every other app: it runs in a pass of its own (below), never beside them.
  const apps = Object.keys(appDemos)
    .filter((app) => app !== 'collection')
    .filter((app) => !values.only || values.only.includes(app))
    .filter(
      (app) =>
        existsSync(join(root, 'dist/apps', app, 'main.js')) &&
        existsSync(join(root, 'manifests', app, 'plugin.yaml')),
    );
  if (apps.length === 0) {
    console.error('no plugin to demo: build first (npm run build) and check apps/<app>/demo/upstreams.ts');
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'executor-plugins-demo-'));
  const tokenFile = join(dir, 'token');
  const token = agentToken();
  writeFileSync(tokenFile, token);
  const context: DemoContext = { plugins: [], timeScale };
  const upstreams: DemoUpstreams[] = [];
  const processes: PluginProcess[] = [];
  let failures = 0;
  try {
    for (const app of apps) {
      const { startDemoUpstreams } = await appDemos[app]();
      const up = await startDemoUpstreams(context);
      upstreams.push(up);
      const key = (
        parse(readFileSync(join(root, 'manifests', app, 'plugin.yaml'), 'utf8')) as {
          metadata: { name: string };
        }
      ).metadata.name;
      const proc = await startPluginProcess(app, join(root, 'dist/apps', app, 'main.js'), {
        ...up.env,
        TOKEN_FILE: tokenFile,
        LOG_LEVEL: 'info',
      });
      processes.push(proc);
      context.plugins.push({ name: key, url: proc.url, token });
      const startup = proc.logs.find((l) => l.msg === 'listening')?.startupMs;
      console.log(`started ${app} (plugin "${key}") on ${proc.url} in ${startup} ms`);
    }
    console.log('');
    const results: Result[] = [];
    await runExamples(apps, context, 'single plugins', results, () => failures++);
    const collection = join(root, 'dist/apps/collection/main.js');
    if (existsSync(collection) && !values.only) {
      for (const proc of processes.splice(0)) await stopProcess(proc, () => failures++);
      const proc = await startPluginProcess('collection', collection, {
        ...Object.assign({}, ...upstreams.map((u) => u.env)),
        TOKEN_FILE: tokenFile,
        LOG_LEVEL: 'info',
      });
      processes.push(proc);
      context.plugins.splice(0, context.plugins.length, { name: 'collection', url: proc.url, token });
      const startup = proc.logs.find((l) => l.msg === 'listening')?.startupMs;
      console.log(`started collection (every plugin in one sidecar) on ${proc.url} in ${startup} ms\n`);
      await runExamples(apps, context, 'collection', results, () => failures++);
    }
    for (const up of upstreams) {
      for (const run of (await up.settle?.()) ?? []) {
        const ok = run.phase === 'Succeeded';
        if (!ok) failures++;
        results.push([
          `${run.name} (${run.origin})`,
          run.phase,
          ok ? 'as expected' : 'expected Succeeded',
          0,
        ]);
      }
    }
    console.log('Summary');
    for (const [file, phase, verdict, ms] of results)
      console.log(
        `  ${verdict === 'as expected' ? '✔' : '✖'} ${file.padEnd(78)} ${phase.padEnd(10)} ${String(ms).padStart(6)} ms  ${verdict}`,
      );
    console.log(`${results.length} workflows, ${failures} not as expected (requeues scaled by ${timeScale})`);
  } finally {
    for (const proc of processes) await stopProcess(proc, () => failures++);
    await Promise.all(upstreams.map((u) => u.close()));
    rmSync(dir, { recursive: true, force: true });
  }
  return failures > 0 ? 1 : 0;
}

process.exit(await main());
