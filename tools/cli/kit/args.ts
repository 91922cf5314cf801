// The argument layer every CLI of the repository uses (agent, events, demo, plugin:build, manifests:check,
// new-plugin, stand-in, conformance, bench, release tools), so they all answer the same way:
//   --help / -h            usage on stdout, exit 0 (on every command and sub-command)
//   a usage error          one line on stderr naming the option or input, plus where the usage is; exit 2;
//                          checked before the command runs, so nothing is written
//   an error in a command  one line on stderr, exit 1 (the stack trace only with --verbose)
import { accessSync, constants, statSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** What an input option or positional must name: an existing readable file, a directory, or either. */
export type InputKind = 'file' | 'dir' | 'path';

export interface StringOption {
  type: 'string';
  short?: string;
  multiple?: boolean;
  default?: string;
  required?: boolean;
  /** The allowed values (`--output text|json`). */
  choices?: readonly string[];
  /** The value names an input that must exist and be readable. */
  input?: InputKind;
}

export interface BooleanOption {
  type: 'boolean';
  short?: string;
}

export type OptionSpec = StringOption | BooleanOption;

export interface PositionalSpec {
  /** As shown in messages, e.g. `<workflow.yaml>`. */
  name: string;
  required?: boolean;
  /** Takes every remaining argument (only the last positional). */
  multiple?: boolean;
  input?: InputKind;
}

export interface CommandSpec<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  /** Printed for --help. */
  usage: string;
  options: O;
  positionals?: PositionalSpec[];
}

type ValueOf<S extends OptionSpec> = S extends BooleanOption
  ? boolean
  : S extends { multiple: true }
    ? string[]
    : S extends { default: string } | { required: true }
      ? string
      : string | undefined;

export interface ParsedCommand<O extends Record<string, OptionSpec>> {
  values: { [K in keyof O]: ValueOf<O[K]> } & { verbose: boolean };
  positionals: string[];
}

/** A mistake in the command line or its inputs: one line, exit 2. */
export class UsageError extends Error {}

/** A failure while the command runs, worded for the user: one line, exit 1. */
export class CommandError extends Error {}

export interface Program {
  /** Prefix of every message, e.g. `agent`. */
  name: string;
  /** How to get the usage, e.g. `npm run agent -- --help`. */
  help: string;
}

const HELP_FLAGS = new Set(['--help', '-h']);

/** Whether the arguments ask for help (before a `--` that ends the options). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (HELP_FLAGS.has(a)) return true;
  }
  return false;
}

function wantsVerbose(argv: readonly string[]): boolean {
  return argv.includes('--verbose') || argv.includes('-v');
}

/** Node's parseArgs messages, reworded to one short line naming the option. */
function parseArgsMessage(err: Error & { code?: string }): string {
  const option = /'(-[^' ]+)/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Unknown option '${option}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(err.message)
        ? `${option} takes no value`
        : `${option} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${/'([^']*)'/.exec(err.message)?.[1]}'`;
    default:
      return err.message.split('\n')[0];
  }
}

/** Checks that `path` exists, is of the right kind and is readable; the message names what is wrong. */
export function checkInput(what: string, path: string, kind: InputKind): void {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `${what}: ${path}: ${code === 'ENOENT' ? `no such ${kind === 'dir' ? 'directory' : 'file'}` : (code ?? 'cannot be read')}`,
    );
  }
  if (kind === 'file' && isDir) throw new UsageError(`${what}: ${path} is a directory, not a file`);
  if (kind === 'dir' && !isDir) throw new UsageError(`${what}: ${path} is not a directory`);
  try {
    accessSync(path, constants.R_OK | (isDir ? constants.X_OK : 0));
  } catch {
    throw new UsageError(`${what}: ${path} cannot be read (permission denied)`);
  }
}

/** Parses and checks `argv` against `spec`: unknown options, missing values, choices, inputs, positionals. */
export function parseCommand<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  argv: readonly string[],
): ParsedCommand<O> {
  const options: Record<string, OptionSpec> = {
    verbose: { type: 'boolean', short: 'v' },
    help: { type: 'boolean', short: 'h' },
    ...spec.options,
  };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: (spec.positionals?.length ?? 0) > 0,
      options: Object.fromEntries(
        Object.entries(options).map(([name, o]) => [
          name,
          JSON.parse(
            JSON.stringify(
              o.type === 'boolean'
                ? { type: 'boolean', short: o.short }
                : { type: 'string', short: o.short, multiple: o.multiple, default: o.default },
            ),
          ) as { type: 'string' | 'boolean' },
        ]),
      ),
    });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw err;
    throw new UsageError(parseArgsMessage(err as Error & { code?: string }));
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  for (const [name, o] of Object.entries(options)) {
    if (o.type === 'boolean') values[name] = values[name] === true;
    if (o.type !== 'string') continue;
    if (o.multiple && values[name] === undefined) values[name] = [];
    const value = values[name];
    const list = value === undefined ? [] : Array.isArray(value) ? value : [value as string];
    if (o.required && list.length === 0) throw new UsageError(`--${name} is required`);
    for (const v of list) {
      if (v === '' && o.default !== '') throw new UsageError(`--${name} needs a value`);
      if (o.choices && !o.choices.includes(v))
        throw new UsageError(`--${name} must be ${orList(o.choices)}, got '${v}'`);
      if (o.input) checkInput(`--${name}`, v, o.input);
    }
  }
  const positionals = parsed.positionals;
  const specs = spec.positionals ?? [];
  specs.forEach((p, i) => {
    const given = p.multiple ? positionals.slice(i) : positionals.slice(i, i + 1);
    if (p.required && given.length === 0) throw new UsageError(`missing ${p.name}`);
    if (p.input) for (const v of given) checkInput(p.name, v, p.input);
  });
  const last = specs.at(-1);
  if (!last?.multiple && positionals.length > specs.length)
    throw new UsageError(`unexpected argument '${positionals[specs.length]}'`);
  return { values, positionals } as unknown as ParsedCommand<O>;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr };

/**
 * Runs a command and turns what it throws into the one-line answers above. Returns the exit code, or
 * undefined when the command keeps running (a server): the caller decides whether to exit.
 */
export async function runCommand<O extends Record<string, OptionSpec>>(
  program: Program,
  argv: readonly string[],
  spec: CommandSpec<O>,
  main: (parsed: ParsedCommand<O>) => Promise<number | void> | number | void,
  io: CliIo = processIo,
): Promise<number | undefined> {
  if (wantsHelp(argv)) {
    io.stdout.write(`${spec.usage.trimEnd()}\n`);
    return 0;
  }
  try {
    const code = await main(parseCommand(spec, argv));
    return code ?? undefined;
  } catch (err) {
    return report(program, err, wantsVerbose(argv), io);
  }
}

/** One line for an error (usage: exit 2, anything else: exit 1); the stack only when asked for. */
export function report(program: Program, err: unknown, verbose: boolean, io: CliIo = processIo): number {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  if (err instanceof UsageError) {
    io.stderr.write(`${program.name}: ${message} (usage: ${program.help})\n`);
    return 2;
  }
  io.stderr.write(`${program.name}: ${message}\n`);
  if (verbose && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  return 1;
}

export interface SubCommand<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  spec: CommandSpec<O>;
  run(parsed: ParsedCommand<O>): Promise<number | void> | number | void;
}

/** Keeps a sub-command's option types (`subCommand(spec, ({ values }) => ...)`). */
export function subCommand<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  run: SubCommand<O>['run'],
): SubCommand {
  return { spec, run } as unknown as SubCommand;
}

/**
 * A CLI with sub-commands (`events serve|test`): `--help` before the sub-command prints `usage`; an unknown or
 * missing sub-command is a usage error; each sub-command answers its own `--help`.
 */
export async function runSubCommands(
  program: Program,
  argv: readonly string[],
  usage: string,
  commands: Record<string, SubCommand>,
  io: CliIo = processIo,
): Promise<number | undefined> {
  const [name, ...rest] = argv;
  const names = Object.keys(commands);
  if (name === undefined || HELP_FLAGS.has(name)) {
    if (name !== undefined) {
      io.stdout.write(`${usage.trimEnd()}\n`);
      return 0;
    }
    return report(program, new UsageError(`missing command: ${orList(names)}`), false, io);
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command)
    return report(
      program,
      new UsageError(
        name.startsWith('-')
          ? `Unknown option '${name}' (give the command first: ${orList(names)})`
          : `unknown command '${name}': ${orList(names)}`,
      ),
      false,
      io,
    );
  return runCommand(
    { ...program, help: program.help.replace(/ --help$/, ` ${name} --help`) },
    rest,
    command.spec,
    (parsed) => command.run(parsed),
    io,
  );
}

/** Ends the process with `code` unless the command keeps running (a server returns undefined). */
export function exitWith(code: number | undefined): void {
  if (code !== undefined) process.exit(code);
}

/**
 * The parent when this module was loaded, before the command printed anything: read when a server starts, it
 * could already be init's pid if the shell was killed right after the server's start-up line.
 */
const LAUNCH_PARENT = process.ppid;

/**
 * Runs `stop` on SIGINT, SIGTERM and SIGHUP, and when the parent process goes away: `npm run` starts a
 * command through `sh -c`, and a SIGTERM to npm ends the shell but not its node child, which would keep
 * serving (and holding its port) as an orphan.
 */
export function stopOnSignalOrOrphan(stop: (reason: string) => void): void {
  let stopping = false;
  const once = (reason: string) => {
    if (stopping) return;
    stopping = true;
    stop(reason);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => once(signal));
  setInterval(() => {
    if (process.ppid !== LAUNCH_PARENT) once('parent process exited');
  }, 500).unref();
  if (process.ppid !== LAUNCH_PARENT) once('parent process exited');
}
