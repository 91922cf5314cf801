import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockedPackage {
  version?: string;
  optional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const root = join(import.meta.dirname, '..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  overrides?: Record<string, string>;
};

/** Where Node (and npm ci) would find `name` when required from the package at `from`. */
function resolve(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at < 0 ? '' : dir.slice(0, at);
  }
}

describe('package-lock.json', () => {
  // npm ci refuses a lock that lacks an entry for any platform's optional binary, even one it would
  // skip on this machine; a registry that lacks one platform's build of a version makes npm write
  // such a lock. The pinned versions in package.json exist for every platform.
  it('records every optional (platform) dependency, so npm ci accepts it on any machine', () => {
    const missing: string[] = [];
    for (const [path, pkg] of Object.entries(lock.packages)) {
      for (const name of Object.keys(pkg.optionalDependencies ?? {})) {
        if (!resolve(path, name)) missing.push(`${path || '(root)'} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('applies the pins that keep it complete', () => {
    expect(lock.packages['node_modules/@swc/core']?.version).toBe('1.16.18');
    const unrs = Object.entries(lock.packages).filter(([path]) =>
      path.endsWith('node_modules/unrs-resolver'),
    );
    expect(unrs.map(([, pkg]) => pkg.version)).toEqual([manifest.overrides?.['unrs-resolver']]);
  });
});
