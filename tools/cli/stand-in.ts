// npm run stand-in -- <app>: starts the local stand-ins of a plugin's upstreams (apps/<app>/demo/upstreams.ts,
// the ones the demo uses) and prints the environment to give the plugin, so it can be run by hand and driven
// with curl or the local agent. Runs until SIGINT/SIGTERM.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { appDemos } from 'virtual:app-demos';
import { exitWith, orList, runCommand, stopOnSignalOrOrphan, UsageError } from './kit/args.js';
import { buildApps } from './kit/build-apps.js';

const root = resolve(import.meta.dirname, '../..');

const USAGE = `usage: npm run stand-in -- <app> [--env-out <file>]

Starts the local stand-ins of the upstreams of apps/<app> (Slack, Jenkins, Databricks, the Argo Server...:
the same ones npm run demo uses, on free loopback ports) and prints the environment to give the plugin, with
the commands that start it and call it by hand. Runs until Ctrl-C.

  --env-out <file>   also write that environment to <file> (KEY=value lines, for node --env-file)

Apps: ${Object.keys(appDemos).join(', ')}.`;

interface PluginManifest {
  metadata: { name: string };
  spec: { sidecar: { container: { ports?: Array<{ containerPort?: number }> } } };
}

function manifestOf(app: string): PluginManifest | undefined {
  const file = join(root, 'manifests', app, 'plugin.yaml');
  return existsSync(file) ? (parse(readFileSync(file, 'utf8')) as PluginManifest) : undefined;
}

function firstExample(app: string): string | undefined {
  const dir = join(root, 'manifests', app, 'examples');
  if (!existsSync(dir)) return undefined;
  const file = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()[0];
  return file && relative(process.cwd(), join(dir, file));
}

const quote = (value: string) =>
  /^[\w./:@%+,=-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;

exitWith(
  await runCommand(
    { name: 'stand-in', help: 'npm run stand-in -- --help' },
    process.argv.slice(2),
    {
      usage: USAGE,
      options: { 'env-out': { type: 'string' } },
      positionals: [{ name: '<app>', required: true }],
    },
    async ({ values, positionals: [app] }) => {
      const load = Object.hasOwn(appDemos, app) ? appDemos[app] : undefined;
      if (!load) throw new UsageError(`no stand-ins for '${app}': ${orList(Object.keys(appDemos))}`);
      // The plugin to run by hand against the stand-ins (dist/apps/<app>/main.js, in the commands below).
      await buildApps(root, [app]);
      const { startDemoUpstreams } = await load();
      const upstreams = await startDemoUpstreams({
        plugins: [],
        timeScale: 1,
        print: (text) => void process.stdout.write(text),
      });
      const env = Object.entries(upstreams.env);
      const manifest = manifestOf(app);
      const port = manifest?.spec.sidecar.container.ports?.[0]?.containerPort ?? 0;
      const key = manifest?.metadata.name ?? app;
      const envLines = env.map(([k, v]) => `${k}=${quote(v)}`);
      if (values['env-out']) writeFileSync(values['env-out'], `${envLines.join('\n')}\n`);
      const example = firstExample(app);
      console.log(`stand-ins of ${app} are running. Give the plugin this environment:

${envLines.map((l) => `  ${l}`).join('\n')}

In another shell (dist/apps/${app} is built):

  printf my-agent-token > /tmp/agent-token
  ${envLines.join(' ')} \\
    PORT=${port} TOKEN_FILE=/tmp/agent-token node dist/apps/${app}/main.js
${
  example
    ? `
then call it through the local agent:

  npm run agent -- run ${example} --plugin ${key}=http://127.0.0.1:${port} --token-file /tmp/agent-token
`
    : ''
}
Ctrl-C stops the stand-ins.`);
      stopOnSignalOrOrphan(() => void upstreams.close().then(() => process.exit(0)));
    },
  ),
);
