// Local agent CLI: runs a workflow's plugin steps against running plugins, exactly as Argo's agent calls them.
//   npm run agent -- run <workflow.yaml> --plugin slack=http://127.0.0.1:10420 --token-file /tmp/token
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  loadManifestFile,
  renderResult,
  resultJson,
  runWorkflow,
  type AgentPlugin,
  type WorkflowShape,
} from '@app/testing';

const USAGE = `usage: npm run agent -- run <workflow.yaml> --plugin <name>=<url> [--plugin ...] --token-file <file>
       [--plugin-token <name>=<file>] [--templates <file|dir>] [-p <name>=<value>] [--namespace <ns>]
       [--time-scale <n>] [--output text|json] [--verbose]

Runs every plugin template of the workflow through the plugins, calling them exactly as Argo's agent does
(every plugin is offered every plugin template in random order; 30s timeout; 5 attempts with 1/2/4/8s backoff
on connection errors, timeouts and 503; 404 disables a plugin; requeue honoured). Other templates are skipped.
Exit code: 0 if the workflow succeeded, 1 if not, 2 for usage or input errors.`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function pairs(values: string[] | undefined, what: string): Array<[string, string]> {
  return (values ?? []).map((v) => {
    const i = v.indexOf('=');
    if (i <= 0) fail(`${what} must be <name>=<value>, got ${JSON.stringify(v)}`);
    return [v.slice(0, i), v.slice(i + 1)];
  });
}

function templateFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(path, f));
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      plugin: { type: 'string', multiple: true },
      'plugin-token': { type: 'string', multiple: true },
      'token-file': { type: 'string' },
      templates: { type: 'string', multiple: true },
      parameter: { type: 'string', short: 'p', multiple: true },
      namespace: { type: 'string' },
      'time-scale': { type: 'string' },
      output: { type: 'string', default: 'text' },
      verbose: { type: 'boolean', short: 'v', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || positionals[0] !== 'run' || !positionals[1]) fail(USAGE);
  const tokens = new Map(pairs(values['plugin-token'], '--plugin-token'));
  const readToken = (file: string) => readFileSync(file, 'utf8').trim();
  const plugins: AgentPlugin[] = pairs(values.plugin, '--plugin').map(([name, url]) => {
    const file = tokens.get(name) ?? values['token-file'];
    if (!file) fail(`no token for plugin ${name}: give --token-file or --plugin-token ${name}=<file>`);
    return { name, url, token: readToken(file) };
  });
  if (plugins.length === 0) fail('give at least one --plugin <name>=<url>');

  let workflow: WorkflowShape;
  const templates: WorkflowShape[] = [];
  try {
    const loaded = loadManifestFile(positionals[1]);
    workflow = loaded.workflows[0] ?? fail(`${positionals[1]}: no Workflow in the file`);
    templates.push(...loaded.templates);
    for (const t of values.templates ?? [])
      for (const f of templateFiles(t)) templates.push(...loadManifestFile(f).templates);
  } catch (err) {
    fail((err as Error).message);
  }

  const timeScale = values['time-scale'] ? Number(values['time-scale']) : 1;
  if (!(timeScale > 0)) fail('--time-scale must be a positive number');
  const result = await runWorkflow(workflow, {
    plugins,
    templates,
    namespace: values.namespace,
    parameters: Object.fromEntries(pairs(values.parameter, '-p')),
    timeScale,
    onEvent: values.verbose
      ? (e) => {
          const detail =
            e.kind === 'requeue'
              ? ` ${e.node.phase} (requeue ${Math.round(e.requeueMs! / 1000)}s) ${e.node.message ?? ''}`
              : e.kind === 'finished'
                ? ` ${e.node.phase} ${e.node.message ?? ''}`
                : '';
          if (e.node.type === 'Plugin')
            console.error(`${new Date().toISOString()} ${e.node.name}: ${e.kind}${detail}`);
        }
      : undefined,
  });
  process.stdout.write(
    values.output === 'json' ? `${JSON.stringify(resultJson(result), null, 2)}\n` : renderResult(result),
  );
  process.exit(result.phase === 'Succeeded' ? 0 : 1);
}

await main();
