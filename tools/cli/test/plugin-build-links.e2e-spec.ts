// `npm run plugin:build -- <dir>` on a plugin directory someone else prepared: a generated file that is a
// symbolic link, or a directory the build writes into that is one, is refused in one line, never written through.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../../..');

describe('plugin:build and symbolic links', () => {
  const work = mkdtempSync(join(tmpdir(), 'plugin-build-links-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A copy of manifests/build-trigger (outside manifests/, so the collection files are left alone). */
  function pluginCopy(name: string): string {
    const dir = join(work, name, 'build-trigger');
    mkdirSync(join(work, name));
    cpSync(join(root, 'manifests/build-trigger'), dir, { recursive: true });
    return dir;
  }

  const build = (dir: string) =>
    spawnSync(process.execPath, [join(root, 'tools/run-cli.mjs'), 'plugin-build', dir], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });

  it.each(['README.md', 'kustomization.yaml', 'plugin.yaml'])(
    '%s -> victim.txt: exit 1, one line naming the link, the victim unchanged',
    (file) => {
      const dir = pluginCopy(file);
      const victim = join(work, file, 'victim.txt');
      // plugin.yaml is written only when it needs stamping: an older image tag does.
      const original =
        file === 'plugin.yaml'
          ? readFileSync(join(dir, file), 'utf8').replace(/(image: \S+:)\S+/, '$10.0.1')
          : 'precious\n';
      writeFileSync(victim, original);
      rmSync(join(dir, file));
      symlinkSync(victim, join(dir, file));
      const r = build(dir);
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([
        `${join(dir, file)} is a symbolic link (to ${victim}): plugin:build does not write through it; remove the link and build again`,
      ]);
      expect(readFileSync(victim, 'utf8')).toBe(original);
    },
  );

  it('the plugin directory itself may be a link (the caller chose it): that builds', () => {
    const dir = pluginCopy('linked');
    const plugin = join(work, 'linked', 'via-link');
    symlinkSync(dir, plugin);
    const r = build(plugin);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(lstatSync(join(dir, 'README.md')).isFile()).toBe(true);
  });
});
