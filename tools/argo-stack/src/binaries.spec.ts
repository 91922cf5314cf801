import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, withBuildLock } from './binaries.js';

describe('run', () => {
  it("logs a failed build's output whole when a character of it was split between two reads", async () => {
    const logged: string[] = [];
    // The 'é' (C3 | A9) written in two parts 50 ms apart, on stdout and on stderr alike.
    const script = (fd: string) => `printf 'caf\\303' >&${fd}; sleep 0.05; printf '\\251 cassé\\n' >&${fd}`;
    await expect(
      run('sh', ['-c', `${script('1')}; ${script('2')}; exit 1`], tmpdir(), (line) => logged.push(line)),
    ).rejects.toThrow(/… failed \(exit 1\)$/);
    expect(logged).toEqual(['café cassé\ncafé cassé']);
  });
});

describe('withBuildLock', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'build-lock-')), 'kube-0123');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('runs two builds of one folder one after the other, never at once, and leaves no lock', async () => {
    const events: string[] = [];
    const build = (name: string) =>
      withBuildLock(
        dir,
        () => undefined,
        async () => {
          events.push(`${name} start`);
          await new Promise((resolve) => setTimeout(resolve, 50));
          events.push(`${name} end`);
          return name;
        },
      );
    await expect(Promise.all([build('a'), build('b')])).resolves.toEqual(['a', 'b']);
    expect(events).toEqual(['a start', 'a end', 'b start', 'b end']);
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('builds into a cache folder that does not exist yet, as on a fresh machine', async () => {
    const fresh = join(dir, '..', 'cache', 'bin', 'kube-0123');
    await expect(
      withBuildLock(
        fresh,
        () => undefined,
        async () => 'built',
      ),
    ).resolves.toBe('built');
    expect(existsSync(`${fresh}.lock`)).toBe(false);
  });

  it('takes over a lock whose owner is gone', async () => {
    const dead = spawnSync('true').pid;
    mkdirSync(`${dir}.lock`);
    writeFileSync(join(`${dir}.lock`, 'pid'), String(dead));
    await expect(
      withBuildLock(
        dir,
        () => undefined,
        async () => 'built',
      ),
    ).resolves.toBe('built');
  });

  it('waits, and says so once, while a live owner holds the lock', async () => {
    mkdirSync(`${dir}.lock`);
    writeFileSync(join(`${dir}.lock`, 'pid'), String(process.pid));
    const logged: string[] = [];
    let done = false;
    const waiting = withBuildLock(
      dir,
      (line) => logged.push(line),
      async () => (done = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(done).toBe(false);
    expect(logged).toEqual([expect.stringMatching(/^waiting for another build of /)]);
    rmSync(`${dir}.lock`, { recursive: true });
    await waiting;
    expect(done).toBe(true);
  });
});
