// npm run bench -- --baseline <rev>: a copy of that revision's tree outside the repository, its dependencies and
// its plugins' builds, all kept in ~/.cache/executor-plugins/bench/<commit> for the next run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface RevisionApp {
  app: string;
  entry: string;
  /** The stand-in host bundle of that revision's demo upstreams. */
  standIns: string;
}

export interface Revision {
  rev: string;
  commit: string;
  dir: string;
  apps: RevisionApp[];
  skipped: Array<{ app: string; reason: string }>;
}

/** What preparing a revision does to the machine; a test gives its own. */
export interface RevisionIo {
  run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): string;
  exists(path: string): boolean;
  read(path: string): string;
}

export const systemIo: RevisionIo = {
  run: (command, args, { cwd, env }) =>
    execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
  exists: existsSync,
  read: (path) => readFileSync(path, 'utf8'),
};

export const revisionCache = (home = homedir()): string => join(home, '.cache/executor-plugins/bench');

/** Written once the copy of the tree is whole: a copy without it (an interrupted run) is made again. */
const COPIED = '.revision-copied';
/** npm writes it when `npm ci` has finished. */
const INSTALLED = 'node_modules/.package-lock.json';
const PLAN = 'bench/.work/revision-plan.json';

/**
 * The revision's tree (`git archive`, no worktree registered in the repository), `npm ci` there with `node` (the
 * repository's Node 24) first on PATH, and its plugins built by bench/revision-build.mjs with its own build.
 * Each step is skipped when the cache already holds its result: a commit's copy never changes.
 */
export function prepareRevision(
  rev: string,
  { root, cache, node }: { root: string; cache: string; node: string },
  io: RevisionIo = systemIo,
): Revision {
  const commit = io.run('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: root }).trim();
  const dir = join(cache, commit.slice(0, 12));
  if (!io.exists(join(dir, COPIED)))
    io.run(
      'sh',
      [
        '-c',
        'rm -rf "$1" && mkdir -p "$1" && git -C "$2" archive --format=tar "$3" | tar -x -C "$1" && touch "$1/$4"',
        'sh',
        dir,
        root,
        commit,
        COPIED,
      ],
      { cwd: root },
    );
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` };
  if (!io.exists(join(dir, INSTALLED))) io.run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, env });
  if (!io.exists(join(dir, PLAN)))
    io.run(node, [join(root, 'bench/revision-build.mjs'), dir], { cwd: dir, env });
  const built = JSON.parse(io.read(join(dir, PLAN))) as Pick<Revision, 'apps' | 'skipped'>;
  return { rev, commit, dir, ...built };
}
