// The GitHub Actions workflows cannot run here, and actionlint is not installed (neither in node_modules nor as
// a Debian package). So they are checked the way actionlint would catch our likely mistakes: against a JSON
// schema of the workflow keys we use (unknown keys are errors), plus the rules a schema cannot express:
// pinned actions, no expressions inside scripts, least-privilege permissions, every command one that exists
// (a repo script, an npm script, a tools/cli CLI, a Dockerfile build argument, or a well-known tool), outputs
// that are produced where they are read, and a matrix that is exactly the apps under apps/.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import {
  collectionContext,
  imagePrefixFor,
  planCollection,
  readChangelog,
  releaseAssets,
} from '@app/manifests';

const root = join(import.meta.dirname, '..');
const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, 'distribution-fixtures/github-workflow.schema.json'), 'utf8'),
) as object;
const validate = new Ajv({
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  strictRequired: false,
}).compile(schema);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};
const dockerfile = readFileSync(join(root, 'docker/Dockerfile'), 'utf8');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: unknown;
  outputs?: Record<string, string>;
  strategy?: { matrix: unknown };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: unknown;
  jobs: Record<string, Job>;
}

const dir = join(root, '.github/workflows');
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
const workflows = Object.fromEntries(
  files.map((f) => [f, parse(readFileSync(join(dir, f), 'utf8')) as Workflow]),
);
const allSteps = Object.entries(workflows).flatMap(([file, wf]) =>
  Object.entries(wf.jobs).flatMap(([job, j]) => j.steps.map((step) => ({ file, job, step }))),
);

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(root, 'tools/run-cli.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The commands of a shell script: each line (continuations joined) split at `&&`, `||`, `;` and `|`. */
function commands(script: string): string[][] {
  return script
    .replace(/\\\n/g, ' ')
    .split('\n')
    .flatMap((line) => line.replace(/#.*$/, '').split(/&&|\|\||;|\|/))
    .map((c) => (c.match(/"[^"]*"|'[^']*'|[^\s]+/g) ?? []).map((w) => w.replace(/^["']|["']$/g, '')))
    .map((words) => {
      const first = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
      return first < 0 ? [] : words.slice(first);
    })
    .filter((words) => words.length > 0);
}

const WELL_KNOWN = new Set(['mkdir', 'curl', 'echo', 'test', 'cat', 'sha256sum']);

/** Why a command would not run from a checkout of this repository (undefined when it would). */
function unknownCommand(words: string[]): string | undefined {
  const [cmd, sub, third] = words;
  if (WELL_KNOWN.has(cmd)) return undefined;
  if (cmd.startsWith('.') || cmd.includes('/')) {
    const path = join(root, cmd);
    if (!existsSync(path)) return `${cmd} does not exist`;
    try {
      accessSync(path, constants.X_OK);
    } catch {
      return `${cmd} is not executable`;
    }
    return undefined;
  }
  if (cmd === 'npm') {
    if (sub === 'ci') return undefined;
    if (sub === 'run') return pkg.scripts[third] ? undefined : `npm script ${third} does not exist`;
    return `npm ${sub} is not used by this repository's pipeline`;
  }
  if (cmd === 'node') {
    if (!existsSync(join(root, sub))) return `${sub} does not exist`;
    if (sub === 'tools/run-cli.mjs' && !existsSync(join(root, 'tools/cli', `${third}.ts`)))
      return `tools/cli/${third}.ts does not exist`;
    return undefined;
  }
  if (cmd === 'docker') {
    if (sub === 'login') return undefined;
    if (sub !== 'buildx' || !['create', 'build'].includes(third))
      return `docker ${sub} ${third} is unexpected`;
    if (third === 'build') {
      const file = words[words.indexOf('-f') + 1];
      if (!existsSync(join(root, file))) return `${file} does not exist`;
      for (let i = 0; i < words.length; i++) {
        if (words[i] !== '--build-arg') continue;
        const arg = words[i + 1].split('=')[0];
        if (!new RegExp(`^ARG ${arg}(=|$)`, 'm').test(dockerfile))
          return `docker/Dockerfile has no ARG ${arg}`;
      }
    }
    return undefined;
  }
  if (cmd === 'gh')
    return sub === 'release' && third === 'create' ? undefined : `gh ${sub} ${third} is unexpected`;
  return `${cmd} is neither in this repository nor a well-known tool`;
}

describe('.github/workflows', () => {
  it('has ci.yml and release.yml, both valid against the workflow schema', () => {
    expect(files.sort()).toEqual(['ci.yml', 'release.yml']);
    for (const [file, wf] of Object.entries(workflows)) {
      const ok = validate(wf);
      expect({ file, errors: ok ? [] : validate.errors }).toEqual({ file, errors: [] });
    }
  });

  it('the schema rejects the mistakes it is there for', () => {
    const good = workflows['ci.yml'];
    const bad = [
      { ...good, jobs: { ci: { ...good.jobs.ci, 'run-on': 'ubuntu-24.04' } } },
      { ...good, permissions: { content: 'read' } },
      { ...good, jobs: { ci: { ...good.jobs.ci, steps: [{ uses: 'actions/checkout@v4', run: 'x' }] } } },
      { ...good, on: { pushh: {} } },
    ];
    for (const wf of bad) expect(validate(wf)).toBe(false);
  });

  it('pins every action to a full commit SHA or a version tag', () => {
    const uses = allSteps.filter((s) => s.step.uses).map((s) => s.step.uses!);
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses)
      expect(u).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@([0-9a-f]{40}|v\d+(\.\d+){0,2})$/);
  });

  it('keeps expressions out of scripts (values reach them through env, never spliced into the shell)', () => {
    for (const { file, job, step } of allSteps.filter((s) => s.step.run))
      expect({ file, job, run: step.run, injected: step.run!.includes('${{') }).toMatchObject({
        injected: false,
      });
  });

  it('runs only commands that exist in this repository or are well-known tools', () => {
    const runs = allSteps.filter((s) => s.step.run);
    expect(runs.length).toBeGreaterThan(5);
    const problems = runs.flatMap(({ file, job, step }) =>
      commands(step.run!)
        .map(unknownCommand)
        .filter((p) => p !== undefined)
        .map((p) => `${file} ${job}: ${p}`),
    );
    expect(problems).toEqual([]);
    expect(unknownCommand(['npm', 'run', 'no-such-script'])).toBe('npm script no-such-script does not exist');
    expect(unknownCommand(['node', 'tools/run-cli.mjs', 'no-such-cli'])).toBe(
      'tools/cli/no-such-cli.ts does not exist',
    );
    expect(unknownCommand(['make', 'release'])).toMatch(/neither in this repository/);
    expect(
      unknownCommand(['docker', 'buildx', 'build', '-f', 'docker/Dockerfile', '--build-arg', 'NOPE=1']),
    ).toBe('docker/Dockerfile has no ARG NOPE');
  });

  it('grants least privilege: read-only CI, nothing by default in release, write only where a job publishes', () => {
    expect(workflows['ci.yml'].permissions).toEqual({ contents: 'read' });
    expect(Object.values(workflows['ci.yml'].jobs).every((j) => j.permissions === undefined)).toBe(true);
    const release = workflows['release.yml'];
    expect(release.permissions).toEqual({});
    expect(
      Object.fromEntries(Object.entries(release.jobs).map(([name, j]) => [name, j.permissions])),
    ).toEqual({
      prepare: { contents: 'read' },
      images: { contents: 'read', packages: 'write' },
      publish: { contents: 'write' },
    });
    for (const { step } of allSteps.filter((s) => s.step.uses?.startsWith('actions/checkout@')))
      expect(step.with?.['persist-credentials']).toBe(false);
  });

  it('reads only outputs that are produced: needs.<job>.outputs.* and steps.<id>.outputs.*', () => {
    for (const [file, wf] of Object.entries(workflows)) {
      for (const [name, job] of Object.entries(wf.jobs)) {
        const text = JSON.stringify(job);
        const needs = [job.needs ?? []].flat();
        for (const [, dep, key] of text.matchAll(/needs\.([\w-]+)\.outputs\.([\w-]+)/g)) {
          expect({ file, name, dep, needed: needs.includes(dep) }).toMatchObject({ needed: true });
          expect({ file, dep, key, declared: key in (wf.jobs[dep].outputs ?? {}) }).toMatchObject({
            declared: true,
          });
        }
        const ids = job.steps.map((s) => s.id).filter(Boolean);
        for (const [, id] of text.matchAll(/steps\.([\w-]+)\.outputs/g))
          expect({ file, name, id, exists: ids.includes(id) }).toMatchObject({ exists: true });
      }
    }
  });
});

describe('ci.yml', () => {
  const ci = workflows['ci.yml'];

  it('runs .ci/run on pushes and pull requests with Node 24 and the npm cache', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    const steps = ci.jobs.ci.steps;
    expect(steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with).toEqual({
      'node-version': 24,
      cache: 'npm',
    });
    expect(steps.at(-1)?.run).toBe('.ci/run');
  });

  it('fetches nothing for the tests: everything they need is in the repository', () => {
    for (const step of ci.jobs.ci.steps) expect(step.run ?? '').not.toMatch(/curl|wget|ARGO_SHARED_DIR/);
    for (const file of ['workflow-jsonschema.json', 'executor-plugin-swagger.yml'])
      expect(existsSync(join(root, 'libs/local-agent/argo', file))).toBe(true);
  });
});

describe('release.yml', () => {
  const release = workflows['release.yml'];
  const runOf = (job: string, needle: string) => release.jobs[job].steps.find((s) => s.run?.includes(needle));

  it('runs on v* tags only', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
  });

  it('refuses a tag other than v<package.json version>, and reports the version, prefix and apps', () => {
    expect(runOf('prepare', 'release-check')?.run).toContain('--tag "$TAG" --owner "$OWNER"');
    const wrong = cli(['release-check', '--tag', 'v0.0.0-not-this', '--owner', 'Acme']);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain(`is not v${pkg.version}`);
    const ok = cli(['release-check', '--tag', `v${pkg.version}`, '--owner', 'Acme']);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const outputs = Object.fromEntries(
      ok.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/=(.*)/s).slice(0, 2)),
    );
    const apps = readdirSync(join(root, 'apps'))
      .filter((a) => existsSync(join(root, 'apps', a, 'src/main.ts')))
      .sort();
    expect(outputs).toEqual({
      version: pkg.version,
      'image-prefix': 'ghcr.io/acme/executor-plugins',
      apps: JSON.stringify(apps),
    });
    expect(Object.keys(release.jobs.prepare.outputs ?? {}).sort()).toEqual(Object.keys(outputs).sort());
  });

  it('builds exactly the apps under apps/ (the matrix is the list release-check prints)', () => {
    expect(release.jobs.images.needs).toBe('prepare');
    expect(release.jobs.images.strategy?.matrix).toEqual({
      app: '${{ fromJSON(needs.prepare.outputs.apps) }}',
    });
    expect(release.jobs.prepare.outputs?.apps).toBe('${{ steps.check.outputs.apps }}');
  });

  it('builds both architectures from docker/Dockerfile with an SBOM and max provenance, tagged by version', () => {
    const build = commands(runOf('images', 'buildx build')!.run!)[0];
    const flag = (name: string) => build[build.indexOf(name) + 1];
    expect(flag('-f')).toBe('docker/Dockerfile');
    expect(flag('--platform')).toBe('linux/amd64,linux/arm64');
    expect(build).toEqual(expect.arrayContaining(['--sbom=true', '--provenance=mode=max', '--push']));
    expect(flag('--tag')).toBe('$IMAGE_PREFIX/$APP:$VERSION');
    const env = release.jobs.images.steps.find((s) => s.run?.includes('buildx build'))!.env!;
    expect(env).toMatchObject({
      APP: '${{ matrix.app }}',
      VERSION: '${{ needs.prepare.outputs.version }}',
      IMAGE_PREFIX: '${{ needs.prepare.outputs.image-prefix }}',
    });
    expect(runOf('images', 'buildx create')?.run).toContain('--driver docker-container');
  });

  it('publishes the files release-assets writes, after the images', () => {
    expect(release.jobs.publish.needs).toEqual(['prepare', 'images']);
    expect(runOf('publish', 'release-assets')?.run).toContain('--out dist/release');
    const ctx = collectionContext(root);
    const plan = planCollection(ctx);
    const written = releaseAssets(plan, ctx, imagePrefixFor('acme'), readChangelog(root)).map((f) => f.path);
    const gh = commands(runOf('publish', 'gh release create')!.run!)[0];
    expect(gh).toEqual(expect.arrayContaining(['dist/release/*.yaml', 'dist/release/SHA256SUMS']));
    expect(gh[gh.indexOf('--notes-file') + 1]).toBe('dist/release/release-notes.md');
    const uploaded = written.filter((f) => f.endsWith('.yaml') || f === 'SHA256SUMS');
    expect(written.sort()).toEqual([...uploaded, 'release-notes.md'].sort());
    for (const p of plan.packages) expect(uploaded).toContain(`${p.app}-install.yaml`);
    expect(plan.packages.length).toBeGreaterThan(0);
  });
});
