// npm run demo: runs every example workflow (manifests/*/examples/*.yaml) through the local agent against the
// built plugins (dist/apps/<app>/main.js), each pointed at its local upstream stand-ins. Like a real agent pod,
// every plugin is offered every plugin template. Then the same examples again against one collection sidecar
// (dist/apps/collection) hosting every plugin. Exit 1 if an example does not end as expected.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { appDemos } from 'virtual:app-demos';
import type { DemoContext, DemoUpstreams, PluginProcess } from '@app/local-agent';
import { pluginCalls, summaryTable, type DemoRun } from './demo/summary.js';
import { buildApps } from './kit/build-apps.js';
import {
  exitWith,
  orList,
  runCommand,
  UsageError,
  type CommandSpec,
  type ParsedCommand,
} from './kit/args.js';

const root = resolve(import.meta.dirname, '../..');
const EXPECT_ANNOTATION = 'executor-plugins.dev/demo-expect';

const USAGE = `usage: npm run demo [-- --only <app> ... --time-scale <n> --verbose]

Runs every example workflow (manifests/<app>/examples/*.yaml) through the local agent against the built
plugins (dist/apps/<app>/main.js), each pointed at its local upstream stand-ins. Like a real agent pod, every
plugin is offered every plugin template. Then, unless --only is given, the same examples run again against
one collection sidecar (dist/apps/collection/main.js) hosting every plugin. Prints each workflow's node tree
and, last, a table of what ran. Every upstream is a local stand-in: nothing leaves the machine.

  --only <app>      demo only these apps (repeatable; skips the collection pass)
  --time-scale <n>  factor for requeue waits and backoff (default 0.05: a 30s requeue takes 1.5s)
  --verbose         also print each plugin's log when it stops

Exit 0 if every example ends as expected, 1 if not.`;

const SPEC = {
  usage: USAGE,
  options: {
    only: { type: 'string', multiple: true },
    'time-scale': { type: 'string', default: '0.05' },
  },
} as const satisfies CommandSpec;

function agentToken(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return [...randomBytes(32)].map((b) => alphabet[b % alphabet.length]).join('');
}

async function main({ values }: ParsedCommand<typeof SPEC.options>): Promise<number> {
  // Loaded once the arguments are checked: --help and usage errors answer at once.
  const { loadManifestFile, noUpstreams, renderResult, runWorkflow, startPluginProcess } =
    await import('@app/local-agent');
  const timeScale = Number(values['time-scale']);
  if (!(timeScale > 0)) throw new UsageError('--time-scale must be a positive number');
  // The collection hosts every other app: it runs in a pass of its own (below), never beside them.
  const known = Object.keys(appDemos).filter((app) => app !== 'collection');
  const unknown = values.only.filter((app) => !known.includes(app));
  if (unknown.length > 0)
    throw new UsageError(`--only: no plugin ${orList(unknown)} (apps: ${known.join(', ')})`);
  console.log(
    'Every upstream below (Slack, Teams, Jenkins, GitHub, Databricks, the Argo Server, ...) is a local stand-in ' +
      'on 127.0.0.1: nothing leaves this machine, and nothing is really posted, built or run.\n',
  );
  await buildApps(root, values.only.length > 0 ? values.only : [...known, 'collection']);
  const apps = known
    .filter((app) => values.only.length === 0 || values.only.includes(app))
    .filter(
      (app) =>
        existsSync(join(root, 'dist/apps', app, 'main.js')) &&
        existsSync(join(root, 'manifests', app, 'plugin.yaml')),
    );
  if (apps.length === 0) {
    console.error('no plugin to demo: check apps/<app>/src/main.ts and manifests/<app>/plugin.yaml');
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'executor-plugins-demo-'));
  const tokenFile = join(dir, 'token');
  const token = agentToken();
  writeFileSync(tokenFile, token);
  const context: DemoContext = {
    plugins: [],
    timeScale,
    print: (text) => void process.stdout.write(text),
  };
  const upstreams: DemoUpstreams[] = [];
  const processes: PluginProcess[] = [];
  let failures = 0;
  const results: DemoRun[] = [];
  const passes: string[] = [];
  /** Every example workflow of the apps against `context.plugins`, labelled with the pass. */
  const runExamples = async (label: string): Promise<void> => {
    passes.push(label);
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
          const result = await runWorkflow(wf, {
            plugins: context.plugins,
            templates: loaded.templates,
            timeScale,
          });
          console.log(`── ${relative(root, path)} (${label}) ──`);
          console.log(renderResult(result));
          if (result.phase !== expected) failures++;
          results.push({
            workflow: `${app}/${file}${loaded.workflows.length > 1 ? ` (${wf.metadata.name ?? wf.metadata.generateName})` : ''}`,
            calls: pluginCalls(wf.spec.templates ?? []),
            pass: label,
            phase: result.phase,
            expected,
          });
        }
      }
    }
  };
  const seen = new Set<string>();
  /**
   * The workflows the upstreams ran by themselves in this pass (a binding's): they run with the pass's plugins
   * and end before those stop (with event-emitter's examples last, one was still running when they did).
   */
  const settled = async (pass: string): Promise<void> => {
    for (const up of upstreams) {
      for (const run of (await up.settle?.()) ?? []) {
        if (seen.has(run.name)) continue;
        seen.add(run.name);
        if (run.phase !== 'Succeeded') failures++;
        results.push({
          workflow: run.name,
          calls: run.origin,
          pass,
          phase: run.phase,
          expected: 'Succeeded',
        });
      }
    }
  };
  const stopProcess = async (proc: PluginProcess): Promise<void> => {
    const code = await proc.stop();
    console.log(
      `stopped ${proc.name}: exit ${code}, ${proc.logs.length} log lines${values.verbose ? `\n${proc.output()}` : ''}`,
    );
    if (code !== 0) failures++;
  };
  try {
    for (const app of apps) {
      const load = appDemos[app];
      const startDemoUpstreams = load ? (await load()).startDemoUpstreams : noUpstreams;
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
    await runExamples('single plugins');
    await settled('single plugins');
    const collection = join(root, 'dist/apps/collection/main.js');
    if (existsSync(collection) && values.only.length === 0) {
      for (const proc of processes.splice(0)) await stopProcess(proc);
      const proc = await startPluginProcess('collection', collection, {
        ...Object.assign({}, ...upstreams.map((u) => u.env)),
        TOKEN_FILE: tokenFile,
        LOG_LEVEL: 'info',
      });
      processes.push(proc);
      context.plugins.splice(0, context.plugins.length, { name: 'collection', url: proc.url, token });
      const startup = proc.logs.find((l) => l.msg === 'listening')?.startupMs;
      console.log(`started collection (every plugin in one sidecar) on ${proc.url} in ${startup} ms\n`);
      await runExamples('collection');
      await settled('collection');
    }
  } finally {
    for (const proc of processes) await stopProcess(proc);
    await Promise.all(upstreams.map((u) => u.close()));
    rmSync(dir, { recursive: true, force: true });
  }
  // The last screen: what ran.
  console.log('\nSummary: what ran, against local stand-ins only');
  for (const line of summaryTable(results, passes)) console.log(line);
  console.log(`${results.length} workflows, ${failures} not as expected (requeues scaled by ${timeScale})`);
  return failures > 0 ? 1 : 0;
}

exitWith(
  await runCommand({ name: 'demo', help: 'npm run demo -- --help' }, process.argv.slice(2), SPEC, main),
);
