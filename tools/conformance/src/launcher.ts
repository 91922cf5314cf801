import { spawn, type ChildProcess } from 'node:child_process';

export interface LaunchSpec {
  /** Split like a shell word list (quotes, backslashes, leading NAME=value) and run without a shell. */
  command: string;
  /** Added to the current environment. */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** ms since spawn. */
  at: number;
}

export class CommandSyntaxError extends Error {}

/**
 * `NAME=value cmd 'arg with spaces' "x"` → env + argv. No pipes, globs or variables: the command runs
 * without a shell so that SIGTERM reaches the plugin itself, as the kubelet's does.
 */
export function splitCommand(command: string): { env: Record<string, string>; argv: string[] } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) word += command[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if ('|&;<>()`$*?'.includes(c)) {
      throw new CommandSyntaxError(
        `--start: "${c}" needs a shell; wrap the command as sh -c '...' (and make the shell exec the plugin)`,
      );
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new CommandSyntaxError(`--start: unterminated ${quote} quote`);
  if (inWord) words.push(word);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const assignment = words.shift()!;
    const eq = assignment.indexOf('=');
    env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  if (words.length === 0) throw new CommandSyntaxError('--start: no command to run');
  return { env, argv: words };
}

/** Names whose values look secret; `*_FILE` and `*_PATH` name where a secret is, not the secret. */
const SECRET_NAME = /^(?!.*_(FILE|PATH)$).*(TOKEN|SECRET|PASSWORD|KEY|CREDENTIAL)/i;

/** The command as it may be shown: values of secret-looking `NAME=value` assignments hidden. */
export function displayCommand(command: string): string {
  return command.replace(
    /(^|\s)([A-Za-z_][A-Za-z0-9_]*)=('[^']*'|"[^"]*"|\S+)/g,
    (all, space: string, name: string) => (SECRET_NAME.test(name) ? `${space}${name}=***` : all),
  );
}

const OUTPUT_LIMIT = 64 * 1024;

/** A plugin process started by the kit: its output tail, its exit, SIGTERM with a grace period. */
export class LaunchedPlugin {
  readonly exited: Promise<ExitStatus>;
  exit?: ExitStatus;
  private tail = '';
  private readonly started = performance.now();

  private constructor(private readonly child: ChildProcess) {
    const keep = (chunk: string): void => {
      this.tail = (this.tail + chunk).slice(-OUTPUT_LIMIT);
    };
    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null): void => {
        this.exit ??= { code, signal, at: this.sinceSpawn() };
        resolve(this.exit);
      };
      child.once('exit', done);
      child.once('error', (err) => {
        this.tail += `\n${err.message}`;
        done(127, null);
      });
    });
  }

  static start(spec: LaunchSpec): LaunchedPlugin {
    const { env, argv } = splitCommand(spec.command);
    const child = spawn(argv[0], argv.slice(1), {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group: the final clean-up can reach whatever the plugin started itself.
      detached: true,
    });
    return new LaunchedPlugin(child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  sinceSpawn(): number {
    return Math.round(performance.now() - this.started);
  }

  output(): string {
    return this.tail;
  }

  /** SIGTERM to the plugin process, then waits up to `graceMs`; SIGKILL (whole group) after that. */
  async terminate(graceMs: number): Promise<{ exit: ExitStatus; ms: number; killed: boolean }> {
    const sent = performance.now();
    if (!this.exit) this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      this.exited.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
    ]);
    clearTimeout(timer);
    if (!inTime) this.kill();
    const exit = await this.exited;
    return { exit, ms: Math.round(performance.now() - sent), killed: !inTime };
  }

  /** SIGKILL to the whole process group (the plugin and anything it started); safe to call at any time. */
  kill(): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
}
