import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binDir } from './binaries.js';
import { TAG_COMMITS, VERSIONED_MODULE, pinnedVersion, tagCommit, versionLdflags } from './versions.js';

const repoRoot = join(import.meta.dirname, '../../..');
const pinned = (set: 'kube' | 'argo' | 'helm' | 'coredns' | 'registry') => {
  const file = join(repoRoot, 'tools/argo-stack/go', set, 'go.mod');
  return pinnedVersion(readFileSync(file, 'utf8'), VERSIONED_MODULE[set], file);
};
const commit = '7b8c6cf0edd376b3d7c2f255142977c7f93db258';

describe('the version link flags', () => {
  it("set Kubernetes' release variables in client-go and component-base from the version go.mod pins", () => {
    const version = pinned('kube');
    expect(version).toBe('v1.35.4');
    const flags = versionLdflags('kube', { version, time: '2026-04-15T18:01:22Z', commit });
    for (const pkg of ['k8s.io/client-go/pkg/version', 'k8s.io/component-base/version'])
      expect(flags.filter((f) => f.startsWith(`-X ${pkg}.`))).toEqual([
        `-X ${pkg}.buildDate=2026-04-15T18:01:22Z`,
        `-X ${pkg}.gitCommit=${commit}`,
        `-X ${pkg}.gitTreeState=clean`,
        `-X ${pkg}.gitVersion=v1.35.4`,
        `-X ${pkg}.gitMajor=1`,
        `-X ${pkg}.gitMinor=35`,
      ]);
    expect(flags).toHaveLength(12);
  });

  it('mark a pre-release minor with "+" and leave the commit out when the proxy does not name it, as version.sh does', () => {
    const flags = versionLdflags('kube', { version: 'v1.36.0-alpha.1', time: '2026-05-01T10:00:00.000Z' });
    expect(flags).toContain('-X k8s.io/component-base/version.gitMinor=36+');
    expect(flags).toContain('-X k8s.io/component-base/version.buildDate=2026-05-01T10:00:00Z');
    expect(flags.some((f) => f.includes('gitCommit') || f.includes('gitTreeState'))).toBe(false);
  });

  it("give Argo's version package the tag, commit and a clean tree, so its GetVersion reports the tag", () => {
    const version = pinned('argo');
    expect(version).toBe('v4.1.4');
    const pkg = 'github.com/argoproj/argo-workflows/v4';
    expect(versionLdflags('argo', { version, time: '2026-09-18T08:14:31Z', commit })).toEqual([
      `-X ${pkg}.version=v4.1.4`,
      `-X ${pkg}.buildDate=2026-09-18T08:14:31Z`,
      `-X ${pkg}.gitCommit=${commit}`,
      `-X ${pkg}.gitTreeState=clean`,
      `-X ${pkg}.gitTag=v4.1.4`,
    ]);
  });

  it("give Helm's version package the pinned tag", () => {
    expect(versionLdflags('helm', { version: pinned('helm'), time: '2026-10-15T00:19:03Z' })).toEqual([
      '-X helm.sh/helm/v4/internal/version.version=v4.3.1',
      '-X helm.sh/helm/v4/internal/version.gitTreeState=clean',
    ]);
  });

  it("give distribution's version package the tag, the commit and its main package, as its Makefile does", () => {
    const version = pinned('registry');
    expect(version).toBe('v3.1.2');
    const pkg = 'github.com/distribution/distribution/v3';
    const revision = TAG_COMMITS[`${pkg}@${version}`]!;
    expect(revision).toMatch(/^[0-9a-f]{40}$/);
    expect(versionLdflags('registry', { version, time: '2026-09-24T11:43:29Z', commit: revision })).toEqual([
      `-X ${pkg}/version.version=v3.1.2`,
      `-X ${pkg}/version.revision=${revision}`,
      `-X ${pkg}/version.mainpkg=${pkg}`,
    ]);
  });

  it("give CoreDNS its GitCommit only when the proxy names one (its version is coremain's constant)", () => {
    expect(pinned('coredns')).toBe('v1.15.0');
    expect(versionLdflags('coredns', { version: 'v1.15.0', time: '2026-10-21T02:17:32Z' })).toEqual([]);
    expect(versionLdflags('coredns', { version: 'v1.15.0', time: '2026-10-21T02:17:32Z', commit })).toEqual([
      `-X github.com/coredns/coredns/coremain.GitCommit=${commit}`,
    ]);
  });

  it('take the commit of the pinned Kubernetes and Argo tags from the record when the proxy leaves Origin out', () => {
    for (const set of ['kube', 'argo'] as const) {
      const module = VERSIONED_MODULE[set];
      const recorded = TAG_COMMITS[`${module}@${pinned(set)}`];
      expect(recorded).toMatch(/^[0-9a-f]{40}$/);
      expect(tagCommit(module, pinned(set))).toBe(recorded);
      expect(tagCommit(module, pinned(set), recorded)).toBe(recorded);
    }
    expect(tagCommit('example.com/unrecorded', 'v1.0.0', commit)).toBe(commit);
    expect(tagCommit('example.com/unrecorded', 'v1.0.0')).toBeUndefined();
  });

  it('refuse a proxy whose commit for a tag differs from the recorded one', () => {
    const module = VERSIONED_MODULE.kube;
    expect(() => tagCommit(module, 'v1.35.4', '0'.repeat(40))).toThrow(
      /says k8s.io\/kubernetes@v1.35.4 is commit 0{40}/,
    );
  });

  it('refuse a proxy answer without a time rather than stamp a date that never was', () => {
    expect(() => versionLdflags('argo', { version: 'v4.1.4', time: '' })).toThrow(/no time/);
  });
});

describe('the binaries cache folder', () => {
  const cache = mkdtempSync(join(tmpdir(), 'argo-stack-cache-'));
  const previous = process.env.ARGO_STACK_CACHE;
  beforeAll(() => (process.env.ARGO_STACK_CACHE = cache));
  afterAll(() => {
    if (previous === undefined) delete process.env.ARGO_STACK_CACHE;
    else process.env.ARGO_STACK_CACHE = previous;
    rmSync(cache, { recursive: true, force: true });
  });

  it('changes with the link flags, so binaries built without the version flags are not reused', () => {
    const plain = binDir(repoRoot, 'kube', '-s -w');
    const versioned = binDir(repoRoot, 'kube', '-s -w -X k8s.io/component-base/version.gitVersion=v1.35.4');
    expect(versioned).not.toBe(plain);
    expect(binDir(repoRoot, 'kube', '-s -w')).toBe(plain);
  });
});
