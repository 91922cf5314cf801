import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { report } from '../../cli/kit/args.js';
import { loadConfig } from './config-file.js';
import { parseCliArgs, usage, UsageError, type CliOptions, type RealAgentCliOptions } from './options.js';
import { runUnderRealAgent, type RealAgentOptions } from './real-agent/run-real.js';
import { renderJson } from './report/json.js';
import { renderJunit } from './report/junit.js';
import { exitCodeFor, type ConformanceReport } from './report/report.js';
import { renderText } from './report/text.js';
import type { RuleResult } from './rule.js';
import { runConformance, SetupError, type ConformanceOptions } from './run.js';
import type { SecretValue } from './secrets.js';
import { TOOL_NAME, VERSION } from './version.js';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
}

const defaultIo: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/** How the kit was started: the prefix of its messages and the command its usage shows. */
export interface KitCommand {
  name: string;
  command: string;
}

/** The published package's command. */
export const PUBLISHED: KitCommand = { name: TOOL_NAME, command: TOOL_NAME };
/** The kit as run in this repository, named like the other CLIs of the checkout. */
export const CHECKOUT: KitCommand = { name: 'conformance', command: 'npm run conformance --' };

/** The whole command line tool; returns the exit code (0 ok, 1 breaking finding, 2 usage/setup error). */
export async function runCli(
  argv: string[],
  io: CliIo = defaultIo,
  kit: KitCommand = PUBLISHED,
): Promise<number> {
  let options: CliOptions | RealAgentCliOptions;
  try {
    const parsed = parseCliArgs(argv);
    if (parsed === 'help' || parsed === 'version') {
      io.stdout.write(parsed === 'help' ? `${usage(kit.command)}\n` : `${TOOL_NAME} ${VERSION}\n`);
      return 0;
    }
    options = parsed;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`${kit.name}: ${err.message} (usage: ${kit.command} --help)\n`);
    return 2;
  }
  let report: ConformanceReport;
  try {
    report =
      options.agent === 'real'
        ? await runUnderRealAgent(realAgentOptions(options, io))
        : await runConformance(await conformanceOptions(options, io, kit));
  } catch (err) {
    if (!(err instanceof SetupError)) throw err;
    io.stderr.write(`${kit.name}: ${err.message}\n`);
    return 2;
  }
  const exitCode = exitCodeFor(report, options.strict);
  if (options.junitFile) writeFileSync(options.junitFile, renderJunit(report));
  io.stdout.write(
    options.output === 'json'
      ? renderJson(report, exitCode)
      : options.output === 'junit'
        ? renderJunit(report)
        : renderText(report, { verbose: options.verbose, exitCode }),
  );
  return exitCode;
}

const progressOf = (io: CliIo) =>
  io.stderr.isTTY
    ? (r: RuleResult) => io.stderr.write(`  ${r.status.padEnd(4)} ${r.id} (${r.ms} ms)\n`)
    : undefined;

function realAgentOptions(options: RealAgentCliOptions, io: CliIo): RealAgentOptions {
  const file = options.config;
  return {
    plugin: options.plugin,
    key: options.key,
    config: file
      ? (key) => {
          try {
            return loadConfig(file, key);
          } catch (err) {
            throw new SetupError((err as Error).message);
          }
        }
      : undefined,
    stackDir: options.stackDir,
    namespace: options.namespace,
    apply: options.apply,
    pollTimeoutMs: options.pollTimeoutMs,
    skip: options.skip,
    onResult: progressOf(io),
  };
}

async function conformanceOptions(
  options: CliOptions,
  io: CliIo,
  kit: KitCommand,
): Promise<ConformanceOptions> {
  let token: string;
  try {
    token = readFileSync(options.tokenFile, 'utf8').trim();
  } catch (err) {
    throw new SetupError(`--token-file: ${(err as Error).message}`);
  }
  let config: unknown;
  if (options.config) {
    try {
      config = loadConfig(options.config, options.key);
    } catch (err) {
      throw new SetupError((err as Error).message);
    }
  }
  const secrets: SecretValue[] = [];
  for (const name of options.secretEnv) {
    const value = io.env[name];
    if (value) secrets.push({ name, value });
    else io.stderr.write(`${kit.name}: --secret-env ${name} is not set in this environment: not checked\n`);
  }
  let countAuthorization: string | undefined;
  if (options.countAuthEnv) {
    countAuthorization = io.env[options.countAuthEnv];
    if (!countAuthorization)
      throw new SetupError(`--count-auth-env ${options.countAuthEnv} is not set in this environment`);
  }
  return {
    url: options.url,
    token,
    key: options.key,
    config,
    countUrl: options.countUrl,
    countAuthorization,
    secrets,
    // The plugin reads the kit's token unless the command names its own file (TOKEN_FILE=... cmd).
    start: options.start
      ? { command: options.start, env: { TOKEN_FILE: resolve(options.tokenFile) } }
      : undefined,
    timeScale: options.timeScale,
    startWindowMs: options.startWindowMs,
    gracePeriodMs: options.gracePeriodMs,
    pollTimeoutMs: options.pollTimeoutMs,
    deadlineMs: options.deadlineMs,
    skip: options.skip,
    onResult: progressOf(io),
  };
}

/** Runs the kit on this process's arguments and sets its exit code. */
export async function runMain(kit: KitCommand): Promise<void> {
  const argv = process.argv.slice(2);
  const code = await runCli(argv, defaultIo, kit).catch((err: unknown) =>
    report({ name: kit.name, help: `${kit.command} --help` }, err, argv.includes('--verbose')),
  );
  process.exitCode = code;
  // Nothing should be left running; if something is, do not hang a CI job over it.
  setTimeout(() => process.exit(code), 2000).unref();
}
