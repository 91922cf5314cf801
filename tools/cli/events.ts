// Local Argo Server event endpoint and WorkflowEventBinding tester.
//   npm run events -- serve --bindings <dir> --token-file <tokens.yaml> [--port 2746] [--run --plugin name=url ...]
//   npm run events -- test --bindings <dir> --payload event.json [-H 'X-Name: v' ...] [--discriminator d]
// (@app/events is imported relatively until tsconfig.json maps it.)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  GoJsonSyntaxError,
  loadManifestFolder,
  renderTestReport,
  startEventEndpoint,
  testBindings,
  type LogEntry,
} from '@app/events';
import type { AgentPlugin } from '@app/testing';

const USAGE = `usage:
  npm run events -- serve --bindings <dir> --token-file <tokens.yaml> [--port 2746] [--host 127.0.0.1]
       [--namespace-default argo] [--event-async-dispatch[=true|false]] [--event-operation-queue-size 64]
       [--event-worker-count 4] [--instanceid <id>] [--out <dir>] [--dispatch-delay <ms>] [--log text|json]
       [--max-body <MiB, default 4; the real server: 100>] [--tls-cert <cert.pem> --tls-key <key.pem>]
       [--run --plugin <name>=<url> ... --plugin-token-file <file> [--time-scale 1]]
  npm run events -- test --bindings <dir> [--payload <event.json>] [-H 'X-Name: value' ...]
       [--discriminator <d>] [--namespace argo] [--instanceid <id>] [--output text|json]

serve: the Argo Server's POST /api/v1/events/{namespace}/{discriminator} with the bindings and templates of
<dir>. Defaults follow the seed document (asynchronous, 64 queued events, 4 workers); --event-async-dispatch=false
is the real server's synchronous mode (200 only if every binding succeeded, else 500). See docs/events.md.
test: what every binding of the namespace does with one event. Exit 0 if no binding has an error.`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function int(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`${name} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

function mebibytes(value: string | undefined, name: string): number | undefined {
  const n = int(value, name);
  return n === undefined ? undefined : n * 1024 * 1024;
}

/** `--event-async-dispatch` alone means true; parseArgs only understands the `=value` form for strings. */
function normaliseArgs(args: string[]): string[] {
  return args.map((a) => (a === '--event-async-dispatch' ? '--event-async-dispatch=true' : a));
}

function printEntry(entry: LogEntry): void {
  const { level, msg, tree, ...fields } = entry;
  const extra = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
  const line = `${new Date().toISOString().slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${msg}${extra}`;
  if (level === 'warn' || level === 'error') console.error(line);
  else console.log(line);
  if (typeof tree === 'string') console.log(tree);
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args: normaliseArgs(args),
    options: {
      bindings: { type: 'string' },
      'token-file': { type: 'string' },
      port: { type: 'string', default: '2746' },
      host: { type: 'string', default: '127.0.0.1' },
      'namespace-default': { type: 'string', default: 'argo' },
      'event-async-dispatch': { type: 'string' },
      'event-operation-queue-size': { type: 'string' },
      'event-worker-count': { type: 'string' },
      instanceid: { type: 'string' },
      out: { type: 'string' },
      'dispatch-delay': { type: 'string' },
      'max-body': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      log: { type: 'string', default: 'text' },
      run: { type: 'boolean', default: false },
      plugin: { type: 'string', multiple: true },
      'plugin-token-file': { type: 'string' },
      'time-scale': { type: 'string', default: '1' },
    },
  });
  if (!values.bindings || !values['token-file']) fail(USAGE);
  const asyncFlag = values['event-async-dispatch'];
  if (asyncFlag !== undefined && !['true', 'false'].includes(asyncFlag))
    fail(`--event-async-dispatch must be true or false, got ${JSON.stringify(asyncFlag)}`);
  let plugins: AgentPlugin[] | undefined;
  if (values.run) {
    const tokenFile =
      values['plugin-token-file'] ?? fail('--run needs --plugin-token-file (the agent token of the plugins)');
    const token = readFileSync(tokenFile, 'utf8').trim();
    plugins = (values.plugin ?? []).map((p) => {
      const i = p.indexOf('=');
      if (i <= 0) fail(`--plugin must be <name>=<url>, got ${JSON.stringify(p)}`);
      return { name: p.slice(0, i), url: p.slice(i + 1), token };
    });
    if (plugins.length === 0) fail('--run needs at least one --plugin <name>=<url>');
  }
  if (Boolean(values['tls-cert']) !== Boolean(values['tls-key']))
    fail('--tls-cert and --tls-key go together');
  const tls =
    values['tls-cert'] && values['tls-key']
      ? { cert: readFileSync(values['tls-cert']), key: readFileSync(values['tls-key']) }
      : undefined;
  const timeScale = Number(values['time-scale']);
  if (!(timeScale > 0)) fail('--time-scale must be a positive number');
  const endpoint = await startEventEndpoint({
    bindingsDir: values.bindings,
    tokenFile: values['token-file'],
    port: int(values.port, '--port'),
    host: values.host,
    tls,
    namespaceDefault: values['namespace-default'],
    asyncDispatch: asyncFlag === undefined ? undefined : asyncFlag === 'true',
    queueSize: int(values['event-operation-queue-size'], '--event-operation-queue-size'),
    workers: int(values['event-worker-count'], '--event-worker-count'),
    instanceId: values.instanceid,
    outDir: values.out,
    dispatchDelayMs: int(values['dispatch-delay'], '--dispatch-delay'),
    maxBodyBytes: mebibytes(values['max-body'], '--max-body'),
    run: plugins ? { plugins, timeScale } : undefined,
    log:
      values.log === 'json'
        ? (e) => console.log(JSON.stringify({ time: new Date().toISOString(), ...e }))
        : printEntry,
  }).catch((err: unknown) => fail((err as Error).message));
  const s = endpoint.settings;
  console.log(
    `event endpoint on ${endpoint.url}/api/v1/events/{namespace}/{discriminator}: ${
      s.asyncDispatch
        ? `async (queue ${s.queueSize}, ${s.workers} workers)`
        : 'sync (the real server default)'
    }${s.instanceId ? `, instance ID ${s.instanceId}` : ''}${s.outDir ? `, workflows written to ${s.outDir}` : ''}${s.run ? ', running workflows with the local agent' : ''}`,
  );
  for (const skipped of endpoint.skipped) console.log(`  skipped ${skipped}`);
  const stop = async (signal: string) => {
    console.log(`${signal}: draining the queue${s.run ? ' and waiting for workflow runs' : ''}...`);
    await endpoint.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

function test(args: string[]): void {
  const { values } = parseArgs({
    args,
    options: {
      bindings: { type: 'string' },
      payload: { type: 'string' },
      header: { type: 'string', short: 'H', multiple: true },
      discriminator: { type: 'string', default: '' },
      namespace: { type: 'string', default: 'argo' },
      instanceid: { type: 'string' },
      output: { type: 'string', default: 'text' },
    },
  });
  if (!values.bindings) fail(USAGE);
  const headers = (values.header ?? []).map((h): [string, string] => {
    const i = h.indexOf(':');
    if (i <= 0) fail(`-H must be 'Name: value', got ${JSON.stringify(h)}`);
    return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
  });
  let report;
  try {
    const body = values.payload ? readFileSync(values.payload) : Buffer.alloc(0);
    report = testBindings({
      objects: loadManifestFolder(values.bindings).objects,
      body,
      headers,
      namespace: values.namespace,
      discriminator: values.discriminator,
      instanceId: values.instanceid,
      remoteAddress: '127.0.0.1',
      host: 'localhost:2746',
    });
  } catch (err) {
    if (err instanceof GoJsonSyntaxError)
      fail(
        `${values.payload}: the server would reply 400 {"code":3,"message":${JSON.stringify(err.message)}}`,
      );
    fail((err as Error).message);
  }
  if (!values.payload)
    console.log(
      'note: no --payload, so the body is empty and payload is nil (clients should send {} instead)\n',
    );
  process.stdout.write(
    values.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderTestReport(report),
  );
  process.exit(report.ok ? 0 : 1);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'serve') await serve(rest);
else if (command === 'test') test(rest);
else fail(USAGE);
