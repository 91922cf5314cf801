// The fork path of docs/write-a-plugin.md, run for real in a copy of the repository (its tracked files, with
// node_modules linked): scaffold a plugin, build and stamp its manifests, build it, lint it, check the
// manifests, call it through the local agent against its demo stand-in, and produce the image reference and the
// install files a release publishes (kustomize-built like `kubectl apply -k` would, when kubectl is present).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ARGO_MIN_VERSION, fromConfigMap, type ConfigMap, type ExecutorPlugin } from '@app/manifests';
import { ownTemplate } from '../bench/src/plan.js';
import { runIn, scratchRepo } from '../tools/cli/test/scratch-repo.js';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs/write-a-plugin.md'), 'utf8');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

/** The walk, in the order the guide gives it. */
const WALK = [
  'npm run new-plugin -- my-thing --upstream http',
  'npm run plugin:build',
  'npm run demo -- --only my-thing',
  'npx eslint apps/my-thing',
  'npm run test:plugin -- my-thing',
  'npm run manifests:check',
  'node tools/run-cli.mjs release-check --tag v$VERSION --owner you',
  'node tools/run-cli.mjs release-assets --owner you',
];

describe('the fork path (docs/write-a-plugin.md), end to end in a copy of the repository', () => {
  let repo: string;
  const run = (command: string) => runIn(repo, command.replace('$VERSION', version));
  const step = (command: string) => {
    const r = run(command);
    expect({ command, status: r.status, out: r.status === 0 ? '' : r.out }).toEqual({
      command,
      status: 0,
      out: '',
    });
    return r.out;
  };

  beforeAll(() => {
    repo = scratchRepo('fork-');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('the guide gives exactly these commands, in this order', () => {
    let at = 0;
    for (const command of WALK) {
      const found = doc.indexOf(
        command.replace('$VERSION', '<version>').replace('--owner you', '--owner <you>'),
        at,
      );
      expect({ command, found: found >= 0 }).toEqual({ command, found: true });
      at = found;
    }
  });

  it('scaffolds, stamps, builds, lints, checks, runs through the local agent and releases', () => {
    const scaffold = step(WALK[0]);
    expect(scaffold).toContain('created plugin "my-thing"');

    const built = step(WALK[1]);
    expect(built).toContain('manifests/my-thing/kustomization.yaml created');
    const manifest = parse(
      readFileSync(join(repo, 'manifests/my-thing/plugin.yaml'), 'utf8'),
    ) as ExecutorPlugin;
    expect(manifest.metadata.annotations?.['workflows.argoproj.io/version']).toBe(ARGO_MIN_VERSION);
    expect(manifest.spec.sidecar.container.image).toBe(
      `ghcr.io/executor-plugins/executor-plugins/my-thing:${version}`,
    );
    for (const f of [
      'kustomization.yaml',
      'agent-rbac.yaml',
      'secret.example.yaml',
      'workflow-level-example.yaml',
    ])
      expect(existsSync(join(repo, 'manifests/my-thing', f))).toBe(true);

    const demo = step(WALK[2]);
    expect(existsSync(join(repo, 'dist/apps/my-thing/main.js'))).toBe(true);
    expect(demo).toMatch(/^✔ my-thing\/my-thing-example\.yaml +my-thing +Succeeded$/m);
    expect(demo).toContain('0 not as expected');

    step(WALK[3]);
    // The scaffold's own specs, the conformance run and the examples, for this plugin alone.
    const own = step(WALK[4]);
    expect(own).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(own).toContain('conformance covered: my-thing\n');
    expect(own).toMatch(/^test:plugin my-thing: .* passed in \d+ s$/m);
    expect(step(WALK[5])).toMatch(/manifests:check: \d+ plugins, 0 problems/);

    // The scaffold's test/conformance.json puts the new plugin in the suites that find plugins by convention:
    // the conformance kit's run over the repo's plugins and the reliability suites (run here for my-thing
    // only), and the bench, which measures its own template.
    const suites = step(
      'node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js ' +
        'tools/conformance/test/repo-plugins.e2e-spec.ts test/reliability/restart.e2e-spec.ts -t my-thing',
    );
    expect(suites).toMatch(/conformance covered: .*my-thing/);
    expect(suites).toMatch(/restart.*my-thing/);
    expect(suites).not.toMatch(/not covered: .*my-thing/);
    const bench = ownTemplate(repo, 'my-thing', join(repo, 'apps/my-thing/test/conformance.json'));
    expect(bench).toMatchObject({ key: 'my-thing', source: 'apps/my-thing/test/conformance.json' });

    const check = step(WALK[6]);
    expect(check).toContain('image-prefix=ghcr.io/you/executor-plugins');
    expect(JSON.parse(/apps=(.*)/.exec(check)![1])).toContain('my-thing');

    expect(step(WALK[7])).toContain('dist/release/my-thing-install.yaml created');
    const install = parseAllDocuments(
      readFileSync(join(repo, 'dist/release/my-thing-install.yaml'), 'utf8'),
    ).map((d) => d.toJSON() as { kind: string; metadata: { name: string } });
    expect(install.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ConfigMap/my-thing-executor-plugin',
      'Role/my-thing-executor-plugin-agent',
      'RoleBinding/my-thing-executor-plugin-agent',
    ]);
    const registered = fromConfigMap(install[0] as unknown as ConfigMap);
    expect(registered.metadata.name).toBe('my-thing');
    expect(registered.spec.sidecar.container.image).toBe(`ghcr.io/you/executor-plugins/my-thing:${version}`);

    if (kubectl) {
      const r = spawnSync('kubectl', ['kustomize', 'manifests/my-thing'], { cwd: repo, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('name: my-thing-executor-plugin\n');
    }
  });
});
