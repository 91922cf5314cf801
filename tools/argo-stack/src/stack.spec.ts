import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { alive } from './stack.js';

const startedOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

describe('a stack process is alive', () => {
  it('while its pid is the process the stack started, not once the pid belongs to another one', async () => {
    const child = spawn('sleep', ['30']);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const proc = { name: 'sleeper', pid: child.pid!, log: '/dev/null', started: startedOf(child.pid!) };
    try {
      expect(alive(proc)).toBe(true);
      // The same pid with another start time: the system gave the pid to a new process after ours ended.
      expect(alive({ ...proc, started: String(Number(proc.started) + 1) })).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect(alive(proc)).toBe(false);
  });
});
