// npm run new-plugin in a copy of the repository: the plugin is complete at once (in the collection's code and
// its generated manifest, manifests:check clean before any plugin:build), and every file written is listed.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runIn, scratchRepo } from './scratch-repo.js';

describe('npm run new-plugin, in a copy of the repository', () => {
  let repo: string;
  let out: string;
  beforeAll(() => {
    repo = scratchRepo('new-plugin-');
    const r = runIn(repo, 'npm run new-plugin -- my-thing');
    expect({ status: r.status, out: r.status === 0 ? '' : r.out }).toEqual({ status: 0, out: '' });
    out = r.out;
  }, 120_000);
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it("puts the plugin in the collection's code and manifest: manifests:check passes as it is", () => {
    const collection = readFileSync(join(repo, 'manifests/collection/plugin.yaml'), 'utf8');
    expect(collection).toContain('        - name: MY_THING_TOKEN\n');
    expect(collection).toMatch(/^ {4}executor-plugins\.dev\/hosts: .*,my-thing$/m);
    expect(collection).toMatch(/^ {10}value: notify,build,data-job,workflow-event,my-thing$/m);
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
    const changed = ['apps', 'manifests', 'charts', 'docs'].flatMap(files).filter(differs);
    expect(listed.sort()).toEqual(changed.sort());
    expect(changed).toEqual(
      expect.arrayContaining([
        'manifests/collection/plugin.yaml',
        'manifests/kustomization.yaml',
        'manifests/shared-agent/collection-env.yaml',
      ]),
    );
  });
});
