import { CommandSyntaxError, displayCommand, LaunchedPlugin, splitCommand } from './launcher.js';

describe('splitCommand', () => {
  it('splits words, honours quotes and escapes, and takes leading NAME=value as env', () => {
    expect(splitCommand(`PORT=4355 TOKEN_FILE='/tmp/a b' python3 -u "server.py" --name it\\'s`)).toEqual({
      env: { PORT: '4355', TOKEN_FILE: '/tmp/a b' },
      argv: ['python3', '-u', 'server.py', '--name', "it's"],
    });
    expect(splitCommand('node dist/main.js X=1')).toEqual({ env: {}, argv: ['node', 'dist/main.js', 'X=1'] });
    expect(splitCommand(`sh -c 'exec node main.js | tee log'`).argv).toEqual([
      'sh',
      '-c',
      'exec node main.js | tee log',
    ]);
  });

  it.each([
    ['node a.js | tee x', '"|" needs a shell'],
    ['node a.js && echo', '"&" needs a shell'],
    ['node $HOME/a.js', '"$" needs a shell'],
    ['node "a.js', 'unterminated " quote'],
    ['A=1', 'no command to run'],
  ])('refuses %s', (command, message) => {
    expect(() => splitCommand(command)).toThrow(CommandSyntaxError);
    expect(() => splitCommand(command)).toThrow(message);
  });
});

it('displayCommand hides the values of secret-looking assignments', () => {
  expect(displayCommand("PORT=1 API_TOKEN=abc DB_PASSWORD='x y' TOKEN_FILE=/t node main.js --key=v")).toBe(
    'PORT=1 API_TOKEN=*** DB_PASSWORD=*** TOKEN_FILE=/t node main.js --key=v',
  );
});

/** Resolves once the process has printed `text` (its signal handlers are in place by then). */
async function printed(p: LaunchedPlugin, text: string): Promise<void> {
  while (!p.output().includes(text)) await new Promise((r) => setTimeout(r, 20));
}

describe('LaunchedPlugin', () => {
  it('passes env, keeps the output, and reports a graceful exit after SIGTERM', async () => {
    const script =
      "process.on('SIGTERM', () => { console.log('bye ' + process.env.WHO); process.exit(0); }); console.log('up'); setInterval(() => {}, 1000);";
    const p = LaunchedPlugin.start({ command: `node -e "${script}"`, env: { WHO: 'conformance' } });
    await printed(p, 'up');
    const stopped = await p.terminate(5000);
    expect(stopped).toMatchObject({ killed: false, exit: { code: 0, signal: null } });
    expect(p.output()).toBe('up\nbye conformance\n');
  });

  it('keeps a character its process wrote in two pieces whole', async () => {
    const script =
      "const b = Buffer.from('é ok'); process.stdout.write(b.subarray(0, 1)); setTimeout(() => process.stdout.write(b.subarray(1)), 100);";
    const p = LaunchedPlugin.start({ command: `node -e "${script}"` });
    await p.exited;
    expect(p.output()).toBe('é ok');
  });

  it('SIGKILLs a process that ignores SIGTERM after the grace period', async () => {
    const p = LaunchedPlugin.start({
      command: `node -e "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);"`,
    });
    await printed(p, 'ready');
    const stopped = await p.terminate(300);
    expect(stopped.killed).toBe(true);
    expect(stopped.exit.signal).toBe('SIGKILL');
  });

  it('reports a command that cannot be started as exit code 127', async () => {
    const p = LaunchedPlugin.start({ command: 'conformance-no-such-command-here' });
    expect((await p.exited).code).toBe(127);
    expect(p.output()).toContain('ENOENT');
  });
});
