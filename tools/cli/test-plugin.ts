// npm run test:plugin -- <name>: one plugin's tests, without the rest of npm test: its unit and e2e tests
// (apps/<name>), the conformance kit against its build (tools/conformance/test/repo-plugins.e2e-spec.ts, for
// this plugin only) and its example workflows through the local agent (npm run demo -- --only <name>).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exitWith, orList, runCommand, UsageError } from './kit/args.js';
import { buildApps } from './kit/build-apps.js';
import { missingPluginFiles } from './kit/plugin-files.js';

const root = resolve(import.meta.dirname, '../..');

const USAGE = `usage: npm run test:plugin -- <name>

Runs one plugin's tests: its unit and e2e tests (apps/<name>/**/*.spec.ts), the conformance kit against its
build with its demo stand-ins (every rule, as npm test runs it for each plugin), and its example workflows
(manifests/<name>/examples) through the local agent, as npm run demo -- --only <name> does. Builds
dist/apps/<name> first. Exit 0 if all three pass, 1 if not.`;

/** The plugins test:plugin runs: apps with an ExecutorPlugin manifest, the collection aside (npm test covers it). */
function plugins(): string[] {
  return readdirSync(join(root, 'apps'))
    .filter((app) => app !== 'collection')
    .filter(
      (app) =>
        existsSync(join(root, 'apps', app, 'src/main.ts')) &&
        existsSync(join(root, 'manifests', app, 'plugin.yaml')),
    )
    .sort();
}

function npm(args: string[], env: Record<string, string> = {}): boolean {
  const run = spawnSync('npm', ['run', '-s', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return run.status === 0;
}

exitWith(
  await runCommand(
    { name: 'test:plugin', help: 'npm run test:plugin -- --help' },
    process.argv.slice(2),
    { usage: USAGE, options: {}, positionals: [{ name: '<name>', required: true }] },
    async ({ positionals: [name] }) => {
      const known = plugins();
      if (!known.includes(name))
        throw new UsageError(
          `no plugin '${name}' (apps/<name> with manifests/<name>/plugin.yaml): ${orList(known)}`,
        );
      const missing = missingPluginFiles(root, name);
      if (missing.length > 0)
        throw new UsageError(
          `${missing.join(' and ')} missing: the conformance run and the examples need them`,
        );
      const started = performance.now();
      await buildApps(root, [name]);
      const steps: Array<[string, boolean]> = [];
      steps.push([
        'unit, e2e and conformance tests',
        npm(['test:unit', '--', `apps/${name}/`, 'tools/conformance/test/repo-plugins.e2e-spec.ts'], {
          CONFORMANCE_APPS: name,
        }),
      ]);
      steps.push(['example workflows through the local agent', npm(['demo', '--', '--only', name])]);
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      const failed = steps.filter(([, ok]) => !ok).map(([what]) => what);
      console.log(
        failed.length === 0
          ? `test:plugin ${name}: ${steps.map(([what]) => what).join(', ')}: passed in ${seconds} s`
          : `test:plugin ${name}: failed: ${failed.join(', ')} (${seconds} s)`,
      );
      return failed.length === 0 ? 0 : 1;
    },
  ),
);
