// A copy of the repository's tracked files (node_modules linked), for tests that run the CLIs as a user would:
// what they write stays in the copy.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '../../..');

export function scratchRepo(prefix: string): string {
  const repo = mkdtempSync(join(tmpdir(), prefix));
  const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' }).stdout.split(
    '\0',
  );
  for (const file of tracked.filter((f) => f && existsSync(join(repoRoot, f)))) {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    cpSync(join(repoRoot, file), join(repo, file));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(repo, 'node_modules'));
  return repo;
}

/** Runs a shell command in the copy: its exit status and its output, stdout then stderr. */
export function runIn(
  repo: string,
  command: string,
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
): { status: number | null; out: string } {
  const r = spawnSync('sh', ['-c', command], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'error', FORCE_COLOR: '0', ...options.env },
    timeout: options.timeoutMs ?? 180_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}
