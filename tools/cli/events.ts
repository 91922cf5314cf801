// Local Argo Server event endpoint and WorkflowEventBinding tester.
//   npm run events -- serve --bindings <dir> --token-file <tokens.yaml> [--port 2746] [--run --plugin name=url ...]
//   npm run events -- test --bindings <dir> --payload event.json [-H 'X-Name: v' ...] [--discriminator d]
import { readFileSync } from 'node:fs';
import type { LogEntry } from '@app/events';
import type { AgentPlugin } from '@app/argo-agent';
import { exitWith, runSubCommands, stopOnSignalOrOrphan, subCommand, UsageError } from './kit/args.js';

const SERVE_USAGE = `usage: npm run events -- serve --bindings <dir> --token-file <tokens.yaml> [--port 2746]
       [--host 127.0.0.1] [--namespace-default argo] [--event-async-dispatch[=true|false]]
       [--event-operation-queue-size 64] [--event-worker-count 4] [--instanceid <id>] [--out <dir>]
       [--dispatch-delay <ms>] [--log text|json] [--max-body <MiB, default 4; the real server: 100>]
       [--expression-timeout <ms, default 5000>] [--expression-heap <MiB, default 256>]
       [--tls-cert <cert.pem> --tls-key <key.pem>]
       [--run --plugin <name>=<url> ... --plugin-token-file <file> [--time-scale 1]]

The Argo Server's POST /api/v1/events/{namespace}/{discriminator} with the bindings and templates of <dir>.
Defaults: asynchronous, 64 queued events, 4 workers; --event-async-dispatch=false is the real server's
synchronous mode (200 only if every binding succeeded, else 500). Expressions are evaluated in separate
processes: one that runs longer than --expression-timeout (per expression) or needs more heap than
--expression-heap fails its binding (the real server has no such bound). SIGINT/SIGTERM drain the queue,
then exit. See docs/events.md.`;

const TEST_USAGE = `usage: npm run events -- test --bindings <dir> [--payload <event.json>] [-H 'X-Name: value' ...]
       [--discriminator <d>] [--namespace argo] [--instanceid <id>] [--output text|json]
       [--expression-timeout <ms, default 5000>] [--expression-heap <MiB, default 256>]

What every binding of the namespace does with one event: matched or not (and which condition decided),
the workflow it would submit, or its error (an expression past the bounds is one, as with serve).
Exit 0 if no binding has an error, 1 if one has, 2 for bad input.`;

const USAGE = `usage: npm run events -- serve|test [options]   (npm run events -- serve --help, ... test --help)

serve: a local Argo Server event endpoint for your WorkflowEventBindings.
test:  what your bindings do with one event, without a server.`;

const PROGRAM = { name: 'events', help: 'npm run events -- --help' };

function int(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} must be a whole number, got '${value}'`);
  return Number(value);
}

/** --expression-timeout and --expression-heap, checked here (the library would throw a sentence, not a usage line). */
function expressionLimits(values: { 'expression-timeout'?: string; 'expression-heap'?: string }) {
  const timeoutMs = int(values['expression-timeout'], '--expression-timeout');
  const heapMiB = int(values['expression-heap'], '--expression-heap');
  if (timeoutMs === 0) throw new UsageError('--expression-timeout must be at least 1 (ms)');
  if (heapMiB !== undefined && heapMiB < 16)
    throw new UsageError('--expression-heap must be at least 16 (MiB)');
  return { timeoutMs, heapMiB };
}

const EXPRESSION_OPTIONS = {
  'expression-timeout': { type: 'string' },
  'expression-heap': { type: 'string' },
} as const;

function mebibytes(value: string | undefined, name: string): number | undefined {
  const n = int(value, name);
  return n === undefined ? undefined : n * 1024 * 1024;
}

/** `--event-async-dispatch` alone means true; parseArgs only understands the `=value` form for strings. */
function normaliseArgs(args: readonly string[]): string[] {
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

const serve = subCommand(
  {
    usage: SERVE_USAGE,
    options: {
      bindings: { type: 'string', required: true, input: 'dir' },
      'token-file': { type: 'string', required: true, input: 'file' },
      port: { type: 'string', default: '2746' },
      host: { type: 'string', default: '127.0.0.1' },
      'namespace-default': { type: 'string', default: 'argo' },
      'event-async-dispatch': { type: 'string', choices: ['true', 'false'] },
      'event-operation-queue-size': { type: 'string' },
      'event-worker-count': { type: 'string' },
      instanceid: { type: 'string' },
      out: { type: 'string' },
      'dispatch-delay': { type: 'string' },
      'max-body': { type: 'string' },
      ...EXPRESSION_OPTIONS,
      'tls-cert': { type: 'string', input: 'file' },
      'tls-key': { type: 'string', input: 'file' },
      log: { type: 'string', default: 'text', choices: ['text', 'json'] },
      run: { type: 'boolean' },
      plugin: { type: 'string', multiple: true },
      'plugin-token-file': { type: 'string', input: 'file' },
      'time-scale': { type: 'string', default: '1' },
    },
  },
  async ({ values }) => {
    // Loaded once the arguments are checked: --help and usage errors answer at once.
    const { startEventEndpoint } = await import('@app/events');
    const asyncFlag = values['event-async-dispatch'];
    let plugins: AgentPlugin[] | undefined;
    if (values.run) {
      const tokenFile = values['plugin-token-file'];
      if (!tokenFile)
        throw new UsageError('--run needs --plugin-token-file (the agent token of the plugins)');
      const token = readFileSync(tokenFile, 'utf8').trim();
      plugins = values.plugin.map((p) => {
        const i = p.indexOf('=');
        if (i <= 0) throw new UsageError(`--plugin must be <name>=<url>, got '${p}'`);
        return { name: p.slice(0, i), url: p.slice(i + 1), token };
      });
      if (plugins.length === 0) throw new UsageError('--run needs at least one --plugin <name>=<url>');
    } else if (values.plugin.length > 0) throw new UsageError('--plugin is used with --run');
    if (Boolean(values['tls-cert']) !== Boolean(values['tls-key']))
      throw new UsageError('--tls-cert and --tls-key go together');
    const tls =
      values['tls-cert'] && values['tls-key']
        ? { cert: readFileSync(values['tls-cert']), key: readFileSync(values['tls-key']) }
        : undefined;
    const limits = expressionLimits(values);
    const timeScale = Number(values['time-scale']);
    if (!(timeScale > 0)) throw new UsageError('--time-scale must be a positive number');
    const options = {
      port: int(values.port, '--port'),
      queueSize: int(values['event-operation-queue-size'], '--event-operation-queue-size'),
      workers: int(values['event-worker-count'], '--event-worker-count'),
      dispatchDelayMs: int(values['dispatch-delay'], '--dispatch-delay'),
      maxBodyBytes: mebibytes(values['max-body'], '--max-body'),
      expressionTimeoutMs: limits.timeoutMs,
      expressionHeapMiB: limits.heapMiB,
    };
    let endpoint;
    try {
      endpoint = await startEventEndpoint({
        ...options,
        bindingsDir: values.bindings,
        tokenFile: values['token-file'],
        host: values.host,
        tls,
        namespaceDefault: values['namespace-default'],
        asyncDispatch: asyncFlag === undefined ? undefined : asyncFlag === 'true',
        instanceId: values.instanceid,
        outDir: values.out,
        run: plugins ? { plugins, timeScale } : undefined,
        log:
          values.log === 'json'
            ? (e) => console.log(JSON.stringify({ time: new Date().toISOString(), ...e }))
            : printEntry,
      });
    } catch (err) {
      // A bad binding, template or tokens file is an input error; nothing has been served yet.
      throw new UsageError((err as Error).message);
    }
    const s = endpoint.settings;
    console.log(
      `event endpoint on ${endpoint.url}/api/v1/events/{namespace}/{discriminator}: ${
        s.asyncDispatch
          ? `async (queue ${s.queueSize}, ${s.workers} workers)`
          : 'sync (the real server default)'
      }${s.instanceId ? `, instance ID ${s.instanceId}` : ''}${s.outDir ? `, workflows written to ${s.outDir}` : ''}${s.run ? ', running workflows with the local agent' : ''}`,
    );
    if (endpoint.skipped.length > 0) {
      console.log(`  not served (the endpoint serves bindings and templates only):`);
      for (const skipped of endpoint.skipped) console.log(`    ${skipped}`);
    }
    stopOnSignalOrOrphan((reason) => {
      console.log(`${reason}: draining the queue${s.run ? ' and waiting for workflow runs' : ''}...`);
      void endpoint.close().then(() => process.exit(0));
    });
  },
);

const test = subCommand(
  {
    usage: TEST_USAGE,
    options: {
      bindings: { type: 'string', required: true, input: 'dir' },
      payload: { type: 'string', input: 'file' },
      header: { type: 'string', short: 'H', multiple: true },
      discriminator: { type: 'string', default: '' },
      namespace: { type: 'string', default: 'argo' },
      instanceid: { type: 'string' },
      output: { type: 'string', default: 'text', choices: ['text', 'json'] },
      ...EXPRESSION_OPTIONS,
    },
  },
  async ({ values }) => {
    const limits = expressionLimits(values);
    const {
      DEFAULT_EXPRESSION_LIMITS,
      GoJsonSyntaxError,
      loadManifestFolder,
      renderTestReport,
      testBindingsBounded,
    } = await import('@app/events');
    const headers = values.header.map((h): [string, string] => {
      const i = h.indexOf(':');
      if (i <= 0) throw new UsageError(`-H must be 'Name: value', got '${h}'`);
      return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
    });
    let report;
    try {
      const body = values.payload ? readFileSync(values.payload) : Buffer.alloc(0);
      report = await testBindingsBounded(
        {
          objects: loadManifestFolder(values.bindings).objects,
          body,
          headers,
          namespace: values.namespace,
          discriminator: values.discriminator,
          instanceId: values.instanceid,
          remoteAddress: '127.0.0.1',
          host: 'localhost:2746',
        },
        {
          timeoutMs: limits.timeoutMs ?? DEFAULT_EXPRESSION_LIMITS.timeoutMs,
          heapMiB: limits.heapMiB ?? DEFAULT_EXPRESSION_LIMITS.heapMiB,
        },
      );
    } catch (err) {
      if (err instanceof GoJsonSyntaxError)
        throw new UsageError(
          `${values.payload}: the server would reply 400 {"code":3,"message":${JSON.stringify(err.message)}}`,
        );
      throw new UsageError((err as Error).message);
    }
    if (!values.payload)
      console.log(
        'note: no --payload, so the body is empty and payload is nil (clients should send {} instead)\n',
      );
    process.stdout.write(
      values.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderTestReport(report),
    );
    return report.ok ? 0 : 1;
  },
);

exitWith(await runSubCommands(PROGRAM, normaliseArgs(process.argv.slice(2)), USAGE, { serve, test }));
