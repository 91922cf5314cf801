import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  parseCommand,
  report,
  runCommand,
  runSubCommands,
  subCommand,
  UsageError,
  type CliIo,
  type CommandSpec,
} from './args.js';

const SPEC = {
  usage: 'usage: thing <file> --mode a|b',
  positionals: [{ name: '<file>', required: true, input: 'file' }],
  options: {
    mode: { type: 'string', choices: ['a', 'b'], default: 'a' },
    key: { type: 'string', required: true },
    tag: { type: 'string', multiple: true },
    dir: { type: 'string', input: 'dir' },
    dry: { type: 'boolean' },
  },
} as const satisfies CommandSpec;

const PROGRAM = { name: 'thing', help: 'thing --help' };

// it.each tables are built before beforeAll runs: the fixture folder exists from the start.
const dir = mkdtempSync(join(tmpdir(), 'args-'));
const file = join(dir, 'input.txt');
writeFileSync(file, 'x');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: { write: (t: string) => (io.out += t) },
    stderr: { write: (t: string) => (io.err += t) },
  };
  return io;
}

describe('parseCommand', () => {
  it('fills defaults: absent booleans are false, absent lists are empty', () => {
    const { values, positionals } = parseCommand(SPEC, [file, '--key', 'k']);
    expect(values).toMatchObject({ mode: 'a', key: 'k', tag: [], dry: false, verbose: false });
    expect(positionals).toEqual([file]);
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [[file, '--key'], '--key needs a value'],
    [[file, '--key', ''], '--key needs a value'],
    [[file, '--dry=yes', '--key', 'k'], '--dry takes no value'],
    [[file], '--key is required'],
    [['--key', 'k'], 'missing <file>'],
    [[file, '--key', 'k', '--mode', 'yaml'], "--mode must be a or b, got 'yaml'"],
    [[join(dir, 'nope'), '--key', 'k'], `<file>: ${join(dir, 'nope')}: no such file`],
    [[dir, '--key', 'k'], `<file>: ${dir} is a directory, not a file`],
    [[file, '--key', 'k', '--dir', file], `--dir: ${file} is not a directory`],
    [[file, 'extra', '--key', 'k'], "unexpected argument 'extra'"],
  ])('%j → %s', (argv, message) => {
    expect(() => parseCommand(SPEC, argv)).toThrow(UsageError);
    expect(() => parseCommand(SPEC, argv)).toThrow(message);
  });
});

describe('runCommand', () => {
  it('--help (even with other mistakes) prints the usage on stdout, exit 0, and does not run the command', async () => {
    const io = capture();
    let ran = false;
    const code = await runCommand(PROGRAM, ['--bogus', '-h'], SPEC, () => void (ran = true), io);
    expect([code, io.out, io.err, ran]).toEqual([0, `${SPEC.usage}\n`, '', false]);
  });

  it('a usage error: one line naming it with where the usage is, exit 2, the command not run', async () => {
    const io = capture();
    let ran = false;
    const code = await runCommand(PROGRAM, [file], SPEC, () => void (ran = true), io);
    expect([code, io.out, io.err, ran]).toEqual([
      2,
      '',
      'thing: --key is required (usage: thing --help)\n',
      false,
    ]);
  });

  it("the command's exit code, and an error inside it as one line, exit 1", async () => {
    const io = capture();
    expect(await runCommand(PROGRAM, [file, '--key', 'k'], SPEC, () => 3, io)).toBe(3);
    const failing = () => {
      throw new Error('upstream said no\n    at somewhere (x.ts:1:1)');
    };
    expect(await runCommand(PROGRAM, [file, '--key', 'k'], SPEC, failing, io)).toBe(1);
    expect(io.err).toBe('thing: upstream said no\n');
  });
});

describe('report', () => {
  it('prints the stack trace only with --verbose', () => {
    const quiet = capture();
    const err = new Error('boom');
    expect(report(PROGRAM, err, false, quiet)).toBe(1);
    expect(quiet.err).toBe('thing: boom\n');
    const verbose = capture();
    report(PROGRAM, err, true, verbose);
    expect(verbose.err.split('\n').length).toBeGreaterThan(3);
    expect(verbose.err).toContain('at ');
  });
});

describe('runSubCommands', () => {
  const commands = {
    go: subCommand(
      { usage: 'usage: thing go --fast', options: { fast: { type: 'boolean' } } },
      ({ values }) => (values.fast ? 0 : 5),
    ),
  };
  const run = (argv: string[]) => {
    const io = capture();
    return runSubCommands(PROGRAM, argv, 'usage: thing go', commands, io).then((code) => ({ code, ...io }));
  };

  it('top-level and sub-command help', async () => {
    expect(await run(['--help'])).toMatchObject({ code: 0, out: 'usage: thing go\n', err: '' });
    expect(await run(['go', '-h'])).toMatchObject({ code: 0, out: 'usage: thing go --fast\n', err: '' });
  });

  it('a missing or unknown command, an option before the command, an option of the sub-command', async () => {
    expect(await run([])).toMatchObject({
      code: 2,
      err: 'thing: missing command: go (usage: thing --help)\n',
    });
    expect(await run(['stop'])).toMatchObject({
      code: 2,
      err: "thing: unknown command 'stop': go (usage: thing --help)\n",
    });
    expect((await run(['--fast'])).err).toBe(
      "thing: Unknown option '--fast' (give the command first: go) (usage: thing --help)\n",
    );
    expect(await run(['go', '--slow'])).toMatchObject({
      code: 2,
      err: "thing: Unknown option '--slow' (usage: thing go --help)\n",
    });
    expect((await run(['go', '--fast'])).code).toBe(0);
  });
});
