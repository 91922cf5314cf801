// Local agent CLI: runs a workflow's plugin steps against running plugins, exactly as Argo's agent calls them.
//   npm run agent -- run <workflow.yaml> --plugin chat-notifier=http://127.0.0.1:10420 --token-file /tmp/token
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowShape } from '@app/local-agent';
import type { AgentPlugin } from '@app/argo-agent';
import { checkInput, exitWith, runSubCommands, subCommand, UsageError } from './kit/args.js';

const USAGE = `usage: npm run agent -- run <workflow.yaml> --plugin <name>=<url> [--plugin ...] --token-file <file>
       [--plugin-token <name>=<file>] [--templates <file|dir>] [-p <name>=<value>] [--namespace <ns>]
       [--time-scale <n>] [--output text|json] [--verbose]

Runs every plugin template of the workflow through the plugins, calling them exactly as Argo's agent does
(every plugin is offered every plugin template in random order; 30s timeout; 5 attempts with 1/2/4/8s backoff
on connection errors, timeouts and 503; 404 disables a plugin; requeue honoured). Other templates are skipped.
--time-scale multiplies every wait (requeues, retryStrategy backoff, the 1/2/4/8s backoff), not the timeout.
Exit code: 0 if the workflow succeeded, 1 if not, 2 for usage or input errors.`;

const PROGRAM = { name: 'agent', help: 'npm run agent -- --help' };

function pairs(values: string[] | undefined, what: string): Array<[string, string]> {
  return (values ?? []).map((v) => {
    const i = v.indexOf('=');
    if (i <= 0) throw new UsageError(`${what} must be <name>=<value>, got '${v}'`);
    return [v.slice(0, i), v.slice(i + 1)];
  });
}

function templateFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(path, f));
}

const run = subCommand(
  {
    usage: USAGE,
    positionals: [{ name: '<workflow.yaml>', required: true, input: 'file' }],
    options: {
      plugin: { type: 'string', multiple: true, required: true },
      'plugin-token': { type: 'string', multiple: true },
      'token-file': { type: 'string', input: 'file' },
      templates: { type: 'string', multiple: true, input: 'path' },
      parameter: { type: 'string', short: 'p', multiple: true },
      namespace: { type: 'string' },
      'time-scale': { type: 'string', default: '1' },
      output: { type: 'string', default: 'text', choices: ['text', 'json'] },
    },
  },
  async ({ values, positionals }) => {
    // Loaded once the arguments are checked: --help and usage errors answer at once.
    const { loadManifestFile, renderResult, resultJson, runWorkflow } = await import('@app/local-agent');
    const tokens = new Map(pairs(values['plugin-token'], '--plugin-token'));
    for (const file of tokens.values()) checkInput('--plugin-token', file, 'file');
    const readToken = (file: string) => readFileSync(file, 'utf8').trim();
    const plugins: AgentPlugin[] = pairs(values.plugin, '--plugin').map(([name, url]) => {
      const file = tokens.get(name) ?? values['token-file'];
      if (!file)
        throw new UsageError(
          `no token for plugin ${name}: give --token-file or --plugin-token ${name}=<file>`,
        );
      return { name, url, token: readToken(file) };
    });
    const timeScale = Number(values['time-scale']);
    if (!(timeScale > 0)) throw new UsageError('--time-scale must be a positive number');
    const parameters = Object.fromEntries(pairs(values.parameter, '-p'));

    let workflow: WorkflowShape | undefined;
    const templates: WorkflowShape[] = [];
    try {
      const loaded = loadManifestFile(positionals[0]);
      workflow = loaded.workflows[0];
      templates.push(...loaded.templates);
      for (const t of values.templates)
        for (const f of templateFiles(t)) templates.push(...loadManifestFile(f).templates);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (!workflow) throw new UsageError(`${positionals[0]}: no Workflow in the file`);

    const result = await runWorkflow(workflow, {
      plugins,
      templates,
      namespace: values.namespace,
      parameters,
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
    return result.phase === 'Succeeded' ? 0 : 1;
  },
);

exitWith(await runSubCommands(PROGRAM, process.argv.slice(2), USAGE, { run }));
