import { tmpdir } from 'node:os';
import { run } from './binaries.js';

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
