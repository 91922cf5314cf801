// npm run stand-in -- <app> --host <address>: the stand-ins listen on that address and name it in the
// environment they print, so that pods of the real stack (at its HOST_ADDR) can reach them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..', '..');
// Any loopback address but 127.0.0.1 is an address of this machine that the default would not use.
const HOST = '127.0.0.2';

describe('npm run stand-in -- <app> --host', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stand-in-host-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('listens on the address and names it in every URL of the environment', async () => {
    const envFile = join(dir, 'build-trigger.env');
    const child = spawn(
      process.execPath,
      [join(root, 'tools/run-cli.mjs'), 'stand-in', 'build-trigger', '--host', HOST, '--env-out', envFile],
      { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start line in 60 s:\n${out}`)), 60_000);
        const read = (chunk: string) => {
          out += chunk;
          if (/are running on 127\.0\.0\.2\./.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.setEncoding('utf8');
        child.stderr.setEncoding('utf8');
        child.stdout.on('data', read);
        child.stderr.on('data', read);
        child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
      });
      const urls = readFileSync(envFile, 'utf8')
        .split('\n')
        .filter((line) => /^\w+_URL=/.test(line))
        .map((line) => line.slice(line.indexOf('=') + 1));
      expect(urls.length).toBeGreaterThanOrEqual(3);
      for (const url of urls) {
        expect(new URL(url).hostname).toBe(HOST);
        const reply = await fetch(`${url}/__stand-in/count?method=POST&path=/`);
        expect(reply.status).toBe(200);
      }
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  });
});
