// npm run new-plugin in a copy of the repository, for each kind of plugin: the plugin is complete at once (in
// the collection's code and its generated manifest, manifests:check clean before any plugin:build), every file
// written is listed, and the kind has only what it needs. The pure-compute and provider kinds are also built and
// run through test:plugin (unit, e2e, conformance, its example); the HTTP kind's is test/distribution-fork.e2e-spec.ts.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runIn, scratchRepo } from './scratch-repo.js';

/** Each kind, and what it has of an upstream's parts: env class, Secret, HTTP client, stand-in, counter. */
const KINDS = [
  { flags: '--upstream http', name: 'my-thing', upstream: true, run: false, token: 'MY_THING_TOKEN' },
  { flags: '--upstream none', name: 'my-calc', upstream: false, run: true, token: undefined },
  { flags: '--provider', name: 'my-hub', upstream: true, run: true, token: 'EXAMPLE_TOKEN' },
] as const;

describe('npm run new-plugin without a kind, not on a terminal', () => {
  it('says in one line which flags exist, and writes nothing', () => {
    const r = runIn(repoRoot, 'npm run -s new-plugin -- my-thing < /dev/null');
    expect(r).toEqual({
      status: 2,
      out: expect.stringMatching(
        /^new-plugin: say which kind of plugin: --upstream http \(.*\), --upstream none \(.*\), --provider \(.*\)/,
      ),
    });
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(repoRoot, 'apps/my-thing'))).toBe(false);
  });
});

describe.each(KINDS)(
  'npm run new-plugin -- $name $flags, in a copy of the repository',
  ({ flags, name, upstream, run, token }) => {
    let repo: string;
    let out: string;
    beforeAll(() => {
      repo = scratchRepo('new-plugin-');
      const r = runIn(repo, `npm run new-plugin -- ${name} ${flags}`);
      expect({ status: r.status, out: r.status === 0 ? '' : r.out }).toEqual({ status: 0, out: '' });
      out = r.out;
    }, 120_000);
    afterAll(() => rmSync(repo, { recursive: true, force: true }));

    it("puts the plugin in the collection's code and manifest: manifests:check passes as it is", () => {
      const collection = readFileSync(join(repo, 'manifests/collection/plugin.yaml'), 'utf8');
      // Its credential joins the collection's env (a pure-compute plugin has none).
      if (token)
        expect(collection).toContain(`        - name: ${token}
`);
      expect(collection).toMatch(new RegExp(`^ {4}executor-plugins\\.dev/hosts: .*,${name}$`, 'm'));
      expect(collection).toMatch(
        new RegExp(`^ {10}value: notify,build,data-job,workflow-event,${name}$`, 'm'),
      );
      const check = runIn(repo, 'npm run manifests:check');
      expect({ status: check.status, out: check.out }).toEqual({
        status: 0,
        out: expect.stringMatching(/manifests:check: 6 plugins, 0 problems/),
      });
    }, 60_000);

    it('lists every file it created or changed, and only those', () => {
      const listed = [...out.matchAll(/^ {2}([\w./-]+\.\w+)$/gm)].map((m) => m[1]!);
      const differs = (file: string) =>
        !existsSync(join(repoRoot, file)) ||
        readFileSync(join(repoRoot, file), 'utf8') !== readFileSync(join(repo, file), 'utf8');
      const files = (dir: string): string[] =>
        readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
        );
      const changed = ['apps', 'manifests', 'charts', 'docs', 'test'].flatMap(files).filter(differs);
      expect(listed.sort()).toEqual(changed.sort());
      expect(changed).toEqual(
        expect.arrayContaining([
          'manifests/collection/plugin.yaml',
          'manifests/kustomization.yaml',
          'manifests/shared-agent/collection-env.yaml',
        ]),
      );
    });

    it('declares its outputs in its example and installs with kubectl apply -k', () => {
      const example = readFileSync(join(repo, `manifests/${name}/examples/${name}-example.yaml`), 'utf8');
      expect(example).toMatch(/outputs:\n\s+parameters:\n\s+- name: \w+\n\s+valueFrom:\n\s+supplied: \{\}/);
      expect(readFileSync(join(repo, `docs/${name}.md`), 'utf8')).toContain(
        `kubectl apply -n <namespace> -k manifests/${name}`,
      );
    });

    it('has an env class, a Secret, a client and a stand-in only when it calls an upstream', () => {
      const app = join(repo, 'apps', name);
      const sources = (dir: string): string[] =>
        readdirSync(join(app, dir), { withFileTypes: true, recursive: true })
          .filter((e) => e.isFile() && e.name.endsWith('.ts'))
          .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
      expect({
        envClass: existsSync(join(app, `src/config/${name}.env.ts`)),
        secret: readFileSync(join(repo, `manifests/${name}/plugin.yaml`), 'utf8').includes('secretKeyRef'),
        client: sources('src').some((text) => text.includes('createUpstreamClient')),
        standIn:
          existsSync(join(app, 'demo/upstreams.ts')) &&
          readFileSync(join(app, 'demo/upstreams.ts'), 'utf8').includes('StandIn'),
        counter: readFileSync(join(app, 'test/conformance.json'), 'utf8').includes('countUrl'),
      }).toEqual({
        envClass: upstream,
        secret: upstream,
        client: upstream,
        standIn: upstream,
        counter: upstream,
      });
    });

    if (flags === '--provider')
      it('has its providers in the one shape: a table, one provider folder, its stand-in on ProviderStandIn', () => {
        const app = join(repo, 'apps', name);
        for (const file of [
          'src/providers/index.ts',
          'src/providers/provider-table.spec.ts',
          'src/providers/example/index.ts',
          'src/providers/example/example-settings.ts',
          'src/providers/example/example-block.dto.ts',
        ])
          expect({ file, exists: existsSync(join(app, file)) }).toEqual({ file, exists: true });
        expect(readFileSync(join(app, 'stand-ins/example/example.stand-in.ts'), 'utf8')).toContain(
          'extends ProviderStandIn',
        );
      });

    if (run)
      it('builds, and passes its unit and e2e tests, conformance and its example (test:plugin)', () => {
        const r = runIn(repo, `npm run test:plugin -- ${name}`);
        expect({ status: r.status, out: r.status === 0 ? '' : r.out }).toEqual({ status: 0, out: '' });
        expect(r.out).toContain(`conformance covered: ${name}`);
        expect(r.out).toMatch(new RegExp(`✔ ${name}/${name}-example\\.yaml .* Succeeded`));
      }, 180_000);
  },
);
