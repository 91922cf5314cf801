// A plugin in a repository of its own: the packages `npm run packages` packs hold what their code imports and
// nothing of the sources, and `new-plugin --standalone` on their tarballs gives a repository that installs
// (the npm registry for the third-party packages, from the npm cache when it can), builds, passes its own unit,
// e2e and conformance tests, and runs as a process under the local agent.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputValue, runWorkflow } from '@app/local-agent';
import { buildPackages, packAll, PACKAGES } from '../tools/packages/build.mjs';
import { packageProblems } from '../tools/packages/package-check.js';
import { freePort } from '../tools/conformance/test/support/fixtures.js';

const root = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'standalone-plugin-'));
const tarballs = join(scratch, 'tarballs');
const unpacked = (lib: string) => join(scratch, 'unpacked', lib, 'package');

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_loglevel: 'error',
      npm_config_update_notifier: 'false',
      FORCE_COLOR: '0',
    },
    timeout: 240_000,
  });
  const out = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}:\n${out}`);
  return out;
}

beforeAll(async () => {
  const dirs = await buildPackages(join(scratch, 'built'));
  for (const [i, tarball] of packAll([...dirs, join(root, 'tools/conformance')], tarballs).entries()) {
    const lib = PACKAGES[i]?.lib ?? 'conformance';
    mkdirSync(join(scratch, 'unpacked', lib), { recursive: true });
    run('tar', ['-xzf', tarball, '-C', join(scratch, 'unpacked', lib)], root);
  }
}, 240_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the packages', () => {
  it.each(PACKAGES.map((p) => p.lib))(
    '@executor-plugins/%s: compiled modules and their declarations, every file they import, their dependencies',
    (lib) => {
      expect(packageProblems(unpacked(lib))).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(unpacked(lib), 'package.json'), 'utf8')) as {
        version: string;
      };
      expect(manifest.version).toBe(
        (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
      );
    },
  );

  it('the check names a file a module imports that the package lacks, and a dependency it lacks', () => {
    const broken = join(scratch, 'broken');
    cpSync(unpacked('local-agent'), broken, { recursive: true });
    rmSync(join(broken, 'dist/internal/argo-agent/go-json.js'));
    const manifest = JSON.parse(readFileSync(join(broken, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    delete manifest.dependencies.yaml;
    writeFileSync(join(broken, 'package.json'), JSON.stringify(manifest));
    const problems = packageProblems(broken);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/imports [./]+internal\/argo-agent\/go-json\.js, which is not in the package$/),
        expect.stringMatching(/imports yaml, but yaml is not a dependency$/),
      ]),
    );
  });
});

describe('a plugin in a repository of its own', () => {
  const repo = join(scratch, 'reverse-text');
  let plugin: ChildProcess | undefined;
  afterAll(() => plugin?.kill());

  it('installs from the tarballs, builds, passes its own tests and conformance, and runs under the local agent', async () => {
    run(
      process.execPath,
      [
        'tools/run-cli.mjs',
        'new-plugin',
        'reverse-text',
        '--upstream',
        'none',
        '--standalone',
        repo,
        '--tarballs',
        tarballs,
      ],
      root,
    );
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], repo);
    const installed =
      Object.keys(
        (JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: object }).packages,
      ).length - 1;
    const tests = run('npm', ['test'], repo);
    expect(tests).toMatch(/ℹ pass 6\n/);
    expect(tests).toMatch(/✔ passes every conformance rule/);
    console.log(`standalone plugin: ${installed} packages installed`);

    const port = await freePort();
    const tokenFile = join(scratch, 'token');
    writeFileSync(tokenFile, 'standalone-token-bcdfghjklmnpqrstvwxz');
    plugin = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: repo,
      env: { ...process.env, PORT: String(port), TOKEN_FILE: tokenFile, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const example = readFileSync(
      join(repo, 'manifests/reverse-text/examples/reverse-text-example.yaml'),
      'utf8',
    );
    const result = await runWorkflow(example, {
      plugins: [
        {
          name: 'reverse-text',
          url: `http://127.0.0.1:${port}`,
          token: 'standalone-token-bcdfghjklmnpqrstvwxz',
        },
      ],
    });
    expect(result.phase).toBe('Succeeded');
    expect(outputValue(result.node('first'), 'words')).toBe('3');
  }, 600_000);
});
