import { parseDuration } from '@app/contract';
import { checkInput, parseCommand, UsageError, wantsHelp } from '../../cli/kit/args.js';
import { isInlineConfig } from './config-file.js';
import { TOOL_NAME } from './version.js';

export { UsageError };

export type OutputFormat = 'text' | 'json' | 'junit';

export interface CliOptions {
  agent: 'local';
  url: string;
  tokenFile: string;
  key: string;
  config?: string;
  countUrl?: string;
  /** Env var whose value is the Authorization header of the count requests. */
  countAuthEnv?: string;
  secretEnv: string[];
  start?: string;
  output: OutputFormat;
  junitFile?: string;
  timeScale: number;
  startWindowMs: number;
  gracePeriodMs: number;
  pollTimeoutMs: number;
  /** Unset: the default bound of runConformance (4 × poll timeout + 10 minutes). */
  deadlineMs?: number;
  skip: string[];
  strict: boolean;
  verbose: boolean;
}

/** `--agent real`: the plugin under the real agent of a running Argo stack (real-agent/run-real.ts). */
export interface RealAgentCliOptions {
  agent: 'real';
  plugin: string;
  key?: string;
  config?: string;
  stackDir?: string;
  namespace?: string;
  apply: string[];
  output: OutputFormat;
  junitFile?: string;
  pollTimeoutMs: number;
  skip: string[];
  strict: boolean;
  verbose: boolean;
}

/** The usage, naming the kit as it was run (`argo-plugin-conformance`, or `npm run conformance --` in the checkout). */
export const usage = (
  command = TOOL_NAME,
): string => `usage: ${command} --url http://127.0.0.1:<port> --token-file <file> --key <plugin-key>
         [--config <body.json|yaml|inline>] [--count-url <url> [--count-auth-env NAME]] [--secret-env NAME ...] [--start "<command>"]
         [--output text|json|junit] [--junit-file <file>] [--time-scale <n>] [--start-window <duration>]
         [--grace-period <duration>] [--poll-timeout <duration>] [--deadline <duration>] [--skip <rule-id> ...]
         [--strict] [--verbose]
       ${command} --agent real --plugin <plugin.yaml|configmap.yaml> [--key <plugin-key>]
         [--config <body.json|yaml|inline>] [--stack-dir <dir>] [--namespace <ns>] [--apply <file> ...]
         [--poll-timeout <duration>] [--output text|json|junit] [--junit-file <file>] [--skip <rule-id> ...] [--strict]

Calls an Argo Workflows executor plugin exactly as Argo's agent does and checks it against the contract the
agent enforces: auth on every path, 404 for unknown methods, {} for other plugins' templates, status 200 with a
JSON body, requeue rules, Failed for a bad body, idempotency, tolerance of extra fields and key order, cold start
and SIGTERM (with --start), no secret in replies.

  --url            the plugin's base URL (the agent calls http://localhost:<containerPort>)
  --token-file     file holding the agent's token (the plugin reads the same file)
  --key            the key under template.plugin that addresses the plugin
  --config         an example plugin body (the value under the key) that succeeds: a JSON or YAML file, or the
                   body itself ('{"text": "hi"}', 'text: hi')
  --count-url      GET → {"count": N} or N: counts the plugin's upstream side effect (idempotency)
  --count-auth-env env var whose value is sent as the Authorization header of the --count-url requests
                   (a counter behind a token, like the local event endpoint's: ARGO_TOKEN="Bearer ...")
  --secret-env     names of env vars whose values must never appear in a reply (repeatable, or A,B)
  --start          command that launches the plugin (run without a shell; gets the current env, and
                   TOKEN_FILE: the --token-file, unless the command sets TOKEN_FILE=... itself)
  --output         text (default), json, or junit on stdout; --junit-file also writes JUnit XML to a file
  --time-scale     factor for the agent's retry backoff and requeue waits (default 1, as in a cluster)
  --start-window   how long a launched plugin may take to answer (default 15s, the agent's retry window)
  --grace-period   SIGTERM → exit allowance (default 30s, the pod default)
  --poll-timeout   longest wait for a Running node to finish (default 5m)
  --deadline       longest the whole run may take (default 4 × --poll-timeout + 10m, so 30m): past it the
                   rule running fails, the rest are not run, exit 1. A plugin that keeps the agent's calls
                   waiting past their 30 s timeout (no reply, or one trickling in) stops the run at once
  --strict         exit 1 on security and hygiene findings too

  --agent real     run the plugin under the real agent of a running Argo stack (npm run argo -- up) instead: its
                   ConfigMap goes into a namespace of the stack, the kit's workflows (the example body, another
                   plugin's template, bad bodies) are submitted there and judged by how they end
  --plugin         the plugin's plugin.yaml (ExecutorPlugin) or its ConfigMap; --key defaults to its name
  --stack-dir      the stack's folder (default: $ARGO_STACK_DIR, else the stack of the checkout run from)
  --namespace      where the plugin is installed and the workflows run (default: conformance-<plugin name>)
  --apply          a manifest applied into that namespace first, e.g. the plugin's Secret (repeatable)

Replies are read up to 4 MiB (the agent's own calls; 1 MiB of any other reply): a larger one fails its rule.

Exit code: 0 no breaks-workflow finding, 1 a breaks-workflow rule failed (with --strict: any rule) or the run
stopped before its end, 2 usage or setup error. Security and hygiene findings are reported either way.`;

/** `--secret-env A B --x` → `--secret-env A --secret-env B --x`: several names after one flag. */
function expandMultiValue(argv: string[], flags: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    out.push(flag);
    if (!flags.includes(flag) || i + 1 >= argv.length) continue;
    out.push(argv[++i]);
    while (i + 1 < argv.length && !argv[i + 1].startsWith('-')) out.push(flag, argv[++i]);
  }
  return out;
}

/** `A,B` and repeated flags → one list. */
const list = (values: string[] | undefined): string[] =>
  (values ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);

function duration(flag: string, value: string): number {
  try {
    const ms = parseDuration(value);
    if (ms > 0) return ms;
  } catch {
    // reported below
  }
  throw new UsageError(
    `${flag}: expected a positive Go duration like 30s or 2m, got ${JSON.stringify(value)}`,
  );
}

/** Options of one agent only, refused with the other. */
const LOCAL_ONLY = [
  'url',
  'token-file',
  'count-url',
  'count-auth-env',
  'secret-env',
  'start',
  'time-scale',
  'start-window',
  'grace-period',
];
const REAL_ONLY = ['plugin', 'stack-dir', 'namespace', 'apply'];

export function parseCliArgs(argv: string[]): CliOptions | RealAgentCliOptions | 'help' | 'version' {
  if (wantsHelp(argv)) return 'help';
  const parsed = parseCommand(
    {
      usage: usage(),
      options: {
        url: { type: 'string' },
        'token-file': { type: 'string', input: 'file' },
        key: { type: 'string' },
        config: { type: 'string' },
        'count-url': { type: 'string' },
        'count-auth-env': { type: 'string' },
        'secret-env': { type: 'string', multiple: true },
        start: { type: 'string' },
        output: { type: 'string', default: 'text', choices: ['text', 'json', 'junit'] },
        'junit-file': { type: 'string' },
        'time-scale': { type: 'string', default: '1' },
        'start-window': { type: 'string', default: '15s' },
        'grace-period': { type: 'string', default: '30s' },
        'poll-timeout': { type: 'string', default: '5m' },
        deadline: { type: 'string' },
        skip: { type: 'string', multiple: true },
        strict: { type: 'boolean' },
        version: { type: 'boolean' },
        agent: { type: 'string', default: 'local', choices: ['local', 'real'] },
        plugin: { type: 'string', input: 'file' },
        'stack-dir': { type: 'string' },
        namespace: { type: 'string' },
        apply: { type: 'string', multiple: true, input: 'file' },
      },
    },
    expandMultiValue(argv, ['--secret-env', '--skip', '--apply']),
  );
  const v = parsed.values;
  if (v.version) return 'version';
  if (v.config !== undefined && !isInlineConfig(v.config)) checkInput('--config', v.config, 'file');
  const given = (flag: string): boolean => argv.some((a) => a === `--${flag}` || a.startsWith(`--${flag}=`));
  const other = (v.agent === 'real' ? LOCAL_ONLY : REAL_ONLY).find(given);
  if (other)
    throw new UsageError(`--${other} is for ${v.agent === 'real' ? 'the local agent' : '--agent real'}`);
  if (v.agent === 'real') {
    if (!v.plugin) throw new UsageError('--plugin is required with --agent real');
    return {
      agent: 'real',
      plugin: v.plugin,
      key: v.key,
      config: v.config,
      stackDir: v['stack-dir'],
      namespace: v.namespace,
      apply: v.apply,
      output: v.output as OutputFormat,
      junitFile: v['junit-file'],
      pollTimeoutMs: duration('--poll-timeout', v['poll-timeout']!),
      skip: list(v.skip),
      strict: v.strict!,
      verbose: v.verbose!,
    };
  }
  for (const required of ['url', 'token-file', 'key'] as const) {
    if (!v[required]) throw new UsageError(`--${required} is required`);
  }
  const timeScale = Number(v['time-scale']);
  if (!(timeScale > 0)) throw new UsageError('--time-scale must be a positive number');
  return {
    agent: 'local',
    url: v.url!,
    tokenFile: v['token-file']!,
    key: v.key!,
    config: v.config,
    countUrl: v['count-url'],
    countAuthEnv: v['count-auth-env'],
    secretEnv: list(v['secret-env']),
    start: v.start,
    output: v.output as OutputFormat,
    junitFile: v['junit-file'],
    timeScale,
    startWindowMs: duration('--start-window', v['start-window']!),
    gracePeriodMs: duration('--grace-period', v['grace-period']!),
    pollTimeoutMs: duration('--poll-timeout', v['poll-timeout']!),
    ...(v.deadline !== undefined && { deadlineMs: duration('--deadline', v.deadline) }),
    skip: list(v.skip),
    strict: v.strict!,
    verbose: v.verbose!,
  };
}
