// Every CLI of package.json, as `npm run <script>` runs it, answers the same way (tools/cli/kit/args.ts):
// --help on stdout with exit 0; an unknown option, a missing or bad value, a missing required option or input
// as one line on stderr naming it, exit 2 and nothing written anywhere (the repository, the working directory
// and the temp directory are compared before and after every call).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '../../..');
const scripts = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** Build outputs a CLI may refresh before it parses anything (run-cli.mjs, bench/run.mjs): not the user's files. */
const BUILD_CACHES = new Set(['node_modules', '.git', 'bench/.work', 'coverage']);

function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (BUILD_CACHES.has(relative(root, path)) || entry.name === 'dist') continue;
      if (entry.isDirectory()) walk(path);
      else {
        const s = statSync(path);
        files.set(relative(dir, path), `${s.size}:${s.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return files;
}

function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [path, stamp] of after) if (before.get(path) !== stamp) out.push(path);
  for (const path of before.keys()) if (!after.has(path)) out.push(`${path} (removed)`);
  return out;
}

/** The command npm runs for a script, with node instead of a PATH lookup (`node tools/run-cli.mjs agent`). */
function scriptArgv(script: string): string[] {
  const command = scripts[script].split('&&').at(-1)!.trim().split(/\s+/);
  expect(command[0]).toBe('node');
  return command.slice(1);
}

let work: string;
let tmp: string;
let repoBefore: Map<string, string>;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'cli-cwd-'));
  tmp = mkdtempSync(join(tmpdir(), 'cli-tmp-'));
  repoBefore = snapshot(root);
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
});

function run(script: string, args: string[]) {
  const [entry, ...fixed] = scriptArgv(script);
  const r = spawnSync(process.execPath, [join(root, entry), ...fixed, ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp, FORCE_COLOR: '0' },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Which script, sub-command and calls: a missing required option or input, plus extra usage errors. */
interface CliCase {
  script: string;
  sub?: string;
  missing: { args: string[]; message: string };
  more?: Array<{ args: string[]; message: string }>;
}

const CASES: CliCase[] = [
  {
    script: 'agent',
    sub: 'run',
    missing: { args: ['wf.yaml'], message: '--plugin is required' },
    more: [
      { args: ['--plugin'], message: '--plugin needs a value' },
      { args: ['/nope.yaml', '--plugin', 'a=b'], message: '<workflow.yaml>: /nope.yaml: no such file' },
      {
        args: [join(root, 'package.json'), '--plugin', 'a=b', '--token-file', '/nope'],
        message: '--token-file: /nope: no such file',
      },
      {
        args: [join(root, 'package.json'), '--plugin', 'a=b', '--output', 'yaml'],
        message: "--output must be text or json, got 'yaml'",
      },
    ],
  },
  {
    script: 'events',
    sub: 'serve',
    missing: { args: [], message: '--bindings is required' },
    more: [
      {
        args: ['--bindings', '/nope', '--token-file', '/nope'],
        message: '--bindings: /nope: no such directory',
      },
    ],
  },
  {
    script: 'events',
    sub: 'test',
    missing: { args: [], message: '--bindings is required' },
    more: [
      {
        args: ['--bindings', join(root, 'manifests'), '--payload', '/nope.json'],
        message: '--payload: /nope.json: no such file',
      },
    ],
  },
  {
    script: 'demo',
    missing: { args: ['--only'], message: '--only needs a value' },
    more: [{ args: ['--only', 'nope'], message: '--only: no plugin nope' }],
  },
  {
    script: 'plugin:build',
    missing: { args: ['manifests/nope'], message: '<plugin-dir>: manifests/nope: no such directory' },
    more: [
      {
        args: [join(root, 'apps')],
        message: `<plugin-dir>: ${join(root, 'apps/plugin.yaml')}: no such file`,
      },
    ],
  },
  { script: 'manifests:check', missing: { args: ['extra'], message: "unexpected argument 'extra'" } },
  {
    script: 'new-plugin',
    missing: { args: [], message: 'missing <name>' },
    more: [
      { args: ['my-thing', '--bogus'], message: "Unknown option '--bogus'" },
      { args: ['my-thing', '--upstream', 'ftp'], message: "--upstream must be http or none, got 'ftp'" },
      {
        args: ['my-thing', '--upstream', 'none', '--provider'],
        message: '--upstream and --provider are two kinds of plugin: give one',
      },
      { args: ['My_Thing'], message: "'My_Thing' is not a plugin name" },
      { args: ['chat-notifier'], message: 'apps/chat-notifier or manifests/chat-notifier already exists' },
      {
        args: ['my-thing', '--provider', '--standalone', join(root, 'no-such-dir')],
        message: '--standalone scaffolds --upstream http or --upstream none',
      },
      {
        args: ['my-thing', '--upstream', 'none', '--standalone', join(root, 'apps')],
        message: `${join(root, 'apps')} is not empty`,
      },
      {
        args: [
          'my-thing',
          '--upstream',
          'none',
          '--standalone',
          join(root, 'no-such-dir'),
          '--tarballs',
          join(root, 'apps'),
        ],
        message: `${join(root, 'apps')} lacks executor-plugins-contract-`,
      },
      {
        args: ['my-thing', '--upstream', 'none', '--tarballs', 'x'],
        message: '--tarballs goes with --standalone <dir>',
      },
    ],
  },
  {
    script: 'stand-in',
    missing: { args: [], message: 'missing <app>' },
    more: [
      {
        args: ['build-trigger', '--host', '10.254.254.254'],
        message: '--host 10.254.254.254: cannot listen there (EADDRNOTAVAIL)',
      },
    ],
  },
  {
    script: 'conformance',
    missing: { args: ['--url', 'http://127.0.0.1:1', '--key', 'k'], message: '--token-file is required' },
    more: [
      {
        args: ['--url', 'u', '--key', 'k', '--token-file', join(root, 'package.json'), '--output', 'yaml'],
        message: "--output must be text, json or junit, got 'yaml'",
      },
      {
        args: ['--url', 'u', '--key', 'k', '--token-file', 'token'],
        message: '--token-file: token: no such file',
      },
    ],
  },
  {
    script: 'bench',
    missing: { args: ['--skip'], message: '--skip needs a value' },
    more: [
      {
        args: ['--skip', 'everything'],
        message: "--skip must be cold, load, polls or side, got 'everything'",
      },
      {
        args: ['--candidate', 'HEAD'],
        message: '--candidate needs --baseline: it replaces the working tree in that comparison',
      },
    ],
  },
  {
    script: 'argo',
    missing: { args: [], message: 'missing <up|down|status|env|build>' },
    more: [
      { args: ['start'], message: "unknown command 'start' (up, down, status, env or build)" },
      { args: ['up', '--patch-rate', 'x'], message: "--patch-rate must be a duration such as 2s, got 'x'" },
      { args: ['up', '--agent', 'many'], message: "--agent must be pod or shared, got 'many'" },
      { args: ['up', '--node', 'kubelet'], message: "--node must be runner or real, got 'kubelet'" },
      {
        args: ['up', '--agent', 'shared', '--replicas', '0'],
        message: "--replicas must be a number from 1 to 16, got '0'",
      },
      { args: ['up', '--qps', '2.5'], message: "--qps must be a whole number from 1 to 99999, got '2.5'" },
    ],
  },
  {
    script: 'test:plugin',
    missing: { args: [], message: 'missing <name>' },
    more: [
      { args: ['nope'], message: "no plugin 'nope' (apps/<name> with manifests/<name>/plugin.yaml)" },
      { args: ['collection'], message: "no plugin 'collection'" },
    ],
  },
  { script: 'release:check', missing: { args: ['--tag', 'v1.0.0'], message: '--owner is required' } },
  { script: 'release:assets', missing: { args: [], message: '--owner is required' } },
];

describe('every CLI answers like the conformance kit', () => {
  it('covers every CLI script of package.json', () => {
    const clis = Object.entries(scripts)
      .filter(([, command]) => /node (tools\/run-cli\.mjs|bench\/run\.mjs)/.test(command))
      .map(([name]) => name);
    expect([...new Set(CASES.map((c) => c.script))].sort()).toEqual(clis.sort());
  });

  describe.each(CASES.map((c) => [`${c.script}${c.sub ? ` ${c.sub}` : ''}`, c] as const))('%s', (_, c) => {
    const sub = c.sub ? [c.sub] : [];
    const prefix = c.script;
    const usageError = (args: string[], message: string) => {
      const r = run(c.script, [...sub, ...args]);
      expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 2, stdout: '' });
      expect(r.stderr.split('\n')).toEqual([expect.stringMatching(/\(usage: .*--help\)$/), '']);
      expect(r.stderr.startsWith(`${prefix}: ${message}`)).toBe(true);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    };

    it('--help and -h: the usage on stdout, exit 0', () => {
      for (const flag of ['--help', '-h']) {
        const r = run(c.script, [...sub, flag]);
        expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
        expect(r.stdout).toMatch(/^usage: /);
      }
    });

    it('an unknown option: one line naming it, exit 2', () => {
      usageError(['--bogus'], "Unknown option '--bogus'");
    });

    it(`a missing or bad input: ${c.missing.message}`, () => {
      usageError(c.missing.args, c.missing.message);
      for (const more of c.more ?? []) usageError(more.args, more.message);
    });
  });

  it('sub-commands: a missing or unknown one is a usage error; --help before it shows the command list', () => {
    for (const script of ['agent', 'events']) {
      const help = run(script, ['--help']);
      expect(help.status).toBe(0);
      const missing = run(script, []);
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(
        new RegExp(`^${script}: missing command: .*\\(usage: npm run ${script} -- --help\\)\\n$`),
      );
      const unknown = run(script, ['frobnicate']);
      expect(unknown.stderr).toMatch(new RegExp(`^${script}: unknown command 'frobnicate'`));
    }
  });

  it('tools/run-cli.mjs with a CLI that does not exist: one line naming it and the CLIs there are, exit 2', () => {
    const r = spawnSync(process.execPath, [join(root, 'tools/run-cli.mjs'), 'no-such-cli'], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: tmp },
    });
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 2, stdout: '' });
    expect(r.stderr).toMatch(/^no CLI named no-such-cli; there are: .*\bagent\b.*\n$/);
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  // A build says what it built on stderr (`built event-emitter 1184 KiB in 900 ms`); other suites may build
  // into dist/apps meanwhile, so that folder proves nothing.
  it('--help never builds: npm run demo -- --help and npm run stand-in -- --help print the usage alone', () => {
    for (const script of ['demo', 'stand-in']) {
      const r = spawnSync('npm', ['run', '-s', script, '--', '--help'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect({ script, status: r.status, usage: r.stdout.startsWith('usage: '), stderr: r.stderr }).toEqual({
        script,
        status: 0,
        usage: true,
        stderr: '',
      });
    }
  });

  it('nothing was written: not in the repository, the working directory or the temp directory', () => {
    expect(changes(repoBefore, snapshot(root))).toEqual([]);
    expect(readdirSync(work)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
