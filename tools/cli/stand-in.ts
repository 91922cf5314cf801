// npm run stand-in -- <app>: starts the local stand-ins of a plugin's upstreams (apps/<app>/demo/upstreams.ts,
// the ones the demo uses) and prints the environment to give the plugin, so it can be run by hand and driven
// with curl or the local agent. Runs until SIGINT/SIGTERM.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { appDemos } from 'virtual:app-demos';
import { exitWith, orList, runCommand, stopOnSignalOrOrphan, UsageError } from './kit/args.js';
import { buildApps } from './kit/build-apps.js';

const root = resolve(import.meta.dirname, '../..');

const USAGE = `usage: npm run stand-in -- <app> [--host <address>] [--env-out <file>]

Starts the local stand-ins of the upstreams of apps/<app> (Slack, Jenkins, Databricks, the Argo Server...:
the same ones npm run demo uses, on free loopback ports) and prints the environment to give the plugin, with
the commands that start it and call it by hand. Runs until Ctrl-C.

  --host <address>   listen on this address of the machine instead of 127.0.0.1, and name it in the URLs: the
                     HOST_ADDR of npm run argo -- env, where the real stack's pods reach this machine (TLS
                     stand-ins then serve the stack's certificate)
  --env-out <file>   also write that environment to <file> (KEY=value lines, for node --env-file)

Apps: ${withStandIns().join(', ')}.`;

/** The plugins that have stand-ins: those with an apps/<app>/demo/upstreams.ts. */
function withStandIns(): string[] {
  return Object.keys(appDemos).filter((app) => appDemos[app]);
}

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

/** Refuses an address no interface of this machine has, before any stand-in starts. */
async function checkHost(host: string): Promise<void> {
  await new Promise<void>((done, fail) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(new UsageError(`--host ${host}: cannot listen there (${err.code ?? err.message})`)),
    );
    server.listen(0, host, () => server.close(() => done()));
  });
}

/** Stand-ins listen on `host`; those that speak TLS serve the checkout's stack certificate when it is up there. */
async function listenOn(host: string): Promise<void> {
  await checkHost(host);
  const { defaultStackDir, readState, stackCertificate } = await import('../argo-stack/src/stack.js');
  const { setStandInHost } = await import('@app/local-agent');
  const stack = readState(defaultStackDir(root));
  setStandInHost(host, stack?.hostAddr === host ? stackCertificate(stack) : undefined);
}

const quote = (value: string) =>
  /^[\w./:@%+,=-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;

exitWith(
  await runCommand(
    { name: 'stand-in', help: 'npm run stand-in -- --help' },
    process.argv.slice(2),
    {
      usage: USAGE,
      options: { host: { type: 'string' }, 'env-out': { type: 'string' } },
      positionals: [{ name: '<app>', required: true }],
    },
    async ({ values, positionals: [app] }) => {
      const load = Object.hasOwn(appDemos, app) ? appDemos[app] : undefined;
      if (!load)
        throw new UsageError(
          Object.hasOwn(appDemos, app)
            ? `'${app}' calls no upstream (it has no apps/${app}/demo/upstreams.ts): there is nothing to stand in`
            : `no stand-ins for '${app}': ${orList(withStandIns())}`,
        );
      if (values.host !== undefined) await listenOn(values.host);
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
      const where = values.host === undefined ? '' : ` on ${values.host}`;
      console.log(`stand-ins of ${app} are running${where}. Give the plugin this environment:

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
