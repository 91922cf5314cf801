// The tutorial of docs/write-a-plugin.md, followed step by step in a copy of the repository (its tracked files,
// with node_modules linked): every command of its ```sh tutorial blocks is run and every ```diff tutorial block is
// applied with git apply, in the order of the page, read from the page itself (test/support/tutorial-steps.ts).
// A step that fails, or a patch that no longer applies to what the scaffold writes, fails the test at that step.
// Beyond each step's exit status, the checks below look at what a step made: the scaffold of each kind, the
// reversed outputs, conformance at 100 %, the demo's table, the stamped manifests, the suites that find plugins
// by their manifest, the release files (kustomize-built like `kubectl apply -k` would, when kubectl is present).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ARGO_MIN_VERSION, fromConfigMap, type ConfigMap, type ExecutorPlugin } from '@app/manifests';
import { ownTemplate } from '../bench/src/plan.js';
import { runIn, scratchRepo } from '../tools/cli/test/scratch-repo.js';
import { fillPlaceholders, tutorialSteps, type TutorialStep } from './support/tutorial-steps.js';

const root = join(import.meta.dirname, '..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
const walk = tutorialSteps(root).filter((s) => s.stage === 'walk');

/** The plugins the walk scaffolds, by kind: the one it makes its own, and the other two. */
const WALKED = 'reverse';
const HTTP_KIND = 'my-thing';

/** What is checked after a step of the walk, beyond its exit status 0; each must find its step on the page. */
const CHECKS: Array<[RegExp, (out: string, repo: string) => void]> = [
  [
    /^npm run new-plugin -- (\S+) (--upstream (http|none)|--provider)$/,
    (out) => expect(out).toMatch(/^created plugin "[a-z-]+" \(/m),
  ],
  [
    new RegExp(`^npm run test:plugin -- ${WALKED}$`),
    (out) => {
      expect(out).toMatch(/Tests:\s+\d+ passed, \d+ total/);
      // The reversed outputs: the e2e test as the page's patch left it passed, and every conformance rule.
      expect(out).toMatch(
        new RegExp(`^conformance ${WALKED}: Score (\\d+)/\\1 rules passed \\(100 %\\)`, 'm'),
      );
      expect(out).toMatch(new RegExp(`^test:plugin ${WALKED}: .* passed in \\d+ s$`, 'm'));
    },
  ],
  [
    /^npm run test:plugin -- (my-thing|my-chat)$/,
    (out) => expect(out).toMatch(/^conformance [a-z-]+: Score (\d+)\/\1 rules passed \(100 %\)/m),
  ],
  [
    new RegExp(`^npm run demo -- --only ${WALKED}$`),
    (out) => {
      expect(out).toMatch(/^Every upstream below .* is a local stand-in/m);
      expect(out).toMatch(new RegExp(`^✔ ${WALKED}/${WALKED}-example\\.yaml +${WALKED} +Succeeded$`, 'm'));
      // The first call's declared output reached the second call, which reversed it back.
      expect(out).toContain('eerht owt eno');
      expect(out).toContain('one two three');
      expect(out).toContain('0 not as expected');
    },
  ],
  [
    /^npm run plugin:build$/,
    (_out, repo) => {
      const manifest = parse(
        readFileSync(join(repo, `manifests/${WALKED}/plugin.yaml`), 'utf8'),
      ) as ExecutorPlugin;
      expect(manifest.metadata.annotations?.['workflows.argoproj.io/version']).toBe(ARGO_MIN_VERSION);
      expect(manifest.spec.sidecar.container.image).toBe(
        `ghcr.io/executor-plugins/executor-plugins/${WALKED}:${version}`,
      );
      for (const f of ['kustomization.yaml', 'agent-rbac.yaml', 'workflow-level-example.yaml'])
        expect(existsSync(join(repo, `manifests/${WALKED}`, f))).toBe(true);
      // The ConfigMap carries the description the page's patch wrote.
      expect(
        readFileSync(join(repo, `manifests/${WALKED}/${WALKED}-executor-plugin-configmap.yaml`), 'utf8'),
      ).toContain('Reverses a text');
    },
  ],
  [/^npm run manifests:check$/, (out) => expect(out).toMatch(/manifests:check: \d+ plugins, 0 problems/)],
  [
    /^node tools\/run-cli\.mjs release-check /,
    (out) => {
      expect(out).toContain('image-prefix=ghcr.io/you/executor-plugins');
      expect(JSON.parse(/apps=(.*)/.exec(out)![1])).toEqual(expect.arrayContaining([WALKED, HTTP_KIND]));
    },
  ],
  [
    /^node tools\/run-cli\.mjs release-assets /,
    (out, repo) => {
      expect(out).toContain(`dist/release/${WALKED}-install.yaml created`);
      const install = parseAllDocuments(
        readFileSync(join(repo, `dist/release/${WALKED}-install.yaml`), 'utf8'),
      ).map((d) => d.toJSON() as { kind: string; metadata: { name: string } });
      expect(install.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
        `ConfigMap/${WALKED}-executor-plugin`,
        `Role/${WALKED}-executor-plugin-agent`,
        `RoleBinding/${WALKED}-executor-plugin-agent`,
      ]);
      const registered = fromConfigMap(install[0] as unknown as ConfigMap);
      expect(registered.metadata.name).toBe(WALKED);
      expect(registered.spec.sidecar.container.image).toBe(
        `ghcr.io/you/executor-plugins/${WALKED}:${version}`,
      );
      if (kubectl) {
        const r = spawnSync('kubectl', ['kustomize', `manifests/${WALKED}`], { cwd: repo, encoding: 'utf8' });
        expect(r.status).toBe(0);
        expect(r.stdout).toContain(`name: ${WALKED}-executor-plugin\n`);
      }
    },
  ],
];

const commandOf = (step: TutorialStep) =>
  'run' in step ? fillPlaceholders(step.run, { version, owner: 'you' }) : undefined;

/** Runs one step in the copy: a command, or a patch applied with git apply. */
function perform(repo: string, step: TutorialStep): { status: number | null; out: string } {
  const command = commandOf(step);
  if (command !== undefined) return runIn(repo, command, { timeoutMs: 600_000 });
  const patchFile = join(mkdtempSync(join(tmpdir(), 'tutorial-patch-')), 'step.diff');
  writeFileSync(patchFile, (step as { patch: string }).patch);
  try {
    return runIn(repo, `git apply --verbose ${patchFile}`);
  } finally {
    rmSync(join(patchFile, '..'), { recursive: true, force: true });
  }
}

describe('the tutorial (docs/write-a-plugin.md), step by step in a copy of the repository', () => {
  let repo: string;
  beforeAll(() => {
    repo = scratchRepo('tutorial-');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('has its steps on the page: a scaffold of each kind, patches, tests, the demo, the release', () => {
    const commands = walk.map(commandOf).filter((c) => c !== undefined);
    for (const [pattern] of CHECKS)
      expect({ pattern: String(pattern), found: commands.some((c) => pattern.test(c)) }).toEqual({
        pattern: String(pattern),
        found: true,
      });
    const kinds = commands.map((c) => /^npm run new-plugin -- \S+ (.*)$/.exec(c)?.[1]).filter(Boolean);
    expect(kinds.sort()).toEqual(['--provider', '--upstream http', '--upstream none']);
    expect(walk.filter((s) => 'patch' in s).length).toBeGreaterThan(0);
  });

  it('passes every step as the page gives it', () => {
    for (const step of walk) {
      const r = perform(repo, step);
      const what = commandOf(step) ?? `the patch at ${step.where}`;
      expect({ step: what, where: step.where, status: r.status, out: r.status === 0 ? '' : r.out }).toEqual({
        step: what,
        where: step.where,
        status: 0,
        out: '',
      });
      for (const [pattern, check] of CHECKS)
        if (commandOf(step) && pattern.test(commandOf(step)!)) check(r.out, repo);
    }

    // The suites that find plugins by their manifest cover what the walk scaffolded: the conformance kit's run
    // over the repo's plugins and the restart suite (run here for the http kind only), and the bench, which
    // measures its own template.
    const suites = runIn(
      repo,
      'node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js ' +
        `tools/conformance/test/repo-plugins.e2e-spec.ts test/reliability/restart.e2e-spec.ts -t ${HTTP_KIND}`,
      { timeoutMs: 600_000 },
    );
    expect({ status: suites.status }).toEqual({ status: 0 });
    expect(suites.out).toMatch(new RegExp(`conformance covered: .*${HTTP_KIND}`));
    expect(suites.out).toMatch(new RegExp(`restart.*${HTTP_KIND}`));
    expect(suites.out).not.toMatch(new RegExp(`not covered: .*${HTTP_KIND}`));
    const bench = ownTemplate(repo, HTTP_KIND, join(repo, `apps/${HTTP_KIND}/test/conformance.json`));
    expect(bench).toMatchObject({ key: HTTP_KIND, source: `apps/${HTTP_KIND}/test/conformance.json` });
  }, 3_600_000);
});
