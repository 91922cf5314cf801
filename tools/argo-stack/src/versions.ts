// The version link flags the upstream release builds set, so that every binary says its version as a release
// does (a build without them answers `v0.0.0-master+$Format:%H$` or `v0.0.0+unknown`). The version is the one
// go.mod pins; the commit and the commit time are those the Go module proxy gives for that version.

export type VersionedSet = 'kube' | 'argo' | 'helm' | 'coredns' | 'registry';

/** What the module proxy says of a pinned version (`go mod download -json` and its `.info` file). */
export interface ModuleRelease {
  version: string;
  /** The commit time (RFC 3339), used as the build date as release builds use SOURCE_DATE_EPOCH. */
  time: string;
  /** The commit the tag names, when the proxy gives it (`Origin.Hash`). */
  commit?: string;
}

/** The module whose release each set's binaries report. */
export const VERSIONED_MODULE: Record<VersionedSet, string> = {
  kube: 'k8s.io/kubernetes',
  argo: 'github.com/argoproj/argo-workflows/v4',
  helm: 'helm.sh/helm/v4',
  coredns: 'github.com/coredns/coredns',
  registry: 'github.com/distribution/distribution/v3',
};

/**
 * The commits the release tags name upstream (refs/tags/<version> of github.com/kubernetes/kubernetes,
 * github.com/argoproj/argo-workflows and github.com/distribution/distribution), as the Go module proxy's
 * `Origin.Hash` gave them on 2026-12-02 and 2026-12-03 (it names none for CoreDNS v1.15.0). The proxy
 * leaves `Origin` out of some answers for the same version, and what a binary reports must not depend on which
 * answer a build got. A version bump adds its line here (versions.spec.ts fails until it does).
 */
export const TAG_COMMITS: Readonly<Record<string, string>> = {
  'k8s.io/kubernetes@v1.35.4': '7b8c6cf0edd376b3d7c2f255142977c7f93db258',
  'github.com/argoproj/argo-workflows/v4@v4.1.4': 'b5b4d665e9be9b87c115f943584c3e0ae96fe073',
  'github.com/distribution/distribution/v3@v3.1.2': '3220848f15d9279c66a41aa0a257469e6aede1e9',
};

/** The commit a tag names: the one recorded above, checked against the proxy's when it gives one. */
export function tagCommit(module: string, version: string, fromProxy?: string): string | undefined {
  const recorded = TAG_COMMITS[`${module}@${version}`];
  if (recorded && fromProxy && recorded !== fromProxy)
    throw new Error(
      `the Go module proxy says ${module}@${version} is commit ${fromProxy}, TAG_COMMITS in versions.ts says ${recorded}`,
    );
  return recorded ?? fromProxy;
}

/** The version go.mod requires for a module, or an error naming the file. */
export function pinnedVersion(goMod: string, module: string, file: string): string {
  const escaped = module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const version = new RegExp(`^\\s*(?:require\\s+)?${escaped} (v\\S+)`, 'm').exec(goMod)?.[1];
  if (!version) throw new Error(`${file} does not require ${module}`);
  return version;
}

/** The proxy's time as `date -u +%Y-%m-%dT%H:%M:%SZ` prints it. */
function buildDate(release: ModuleRelease): string {
  const date = new Date(release.time);
  if (Number.isNaN(date.getTime())) throw new Error(`the module proxy gave no time for ${release.version}`);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Kubernetes' hack/lib/version.sh: the same variables in client-go's and component-base's version packages. */
function kubeVariables(release: ModuleRelease): Array<[string, string]> {
  const vars: Array<[string, string]> = [['buildDate', buildDate(release)]];
  if (release.commit) vars.push(['gitCommit', release.commit], ['gitTreeState', 'clean']);
  vars.push(['gitVersion', release.version]);
  const parts = /^v(\d+)\.(\d+)(\.\d+)?([-].*)?([+].*)?$/.exec(release.version);
  if (parts) vars.push(['gitMajor', parts[1]], ['gitMinor', parts[4] ? `${parts[2]}+` : parts[2]]);
  return ['k8s.io/client-go/pkg/version', 'k8s.io/component-base/version'].flatMap((pkg) =>
    vars.map(([key, value]): [string, string] => [`${pkg}.${key}`, value]),
  );
}

/** Argo's Makefile on a release tag: VERSION and GIT_TAG are the tag, the tree is clean. */
function argoVariables(release: ModuleRelease): Array<[string, string]> {
  const pkg = VERSIONED_MODULE.argo;
  return [
    [`${pkg}.version`, release.version],
    [`${pkg}.buildDate`, buildDate(release)],
    ...(release.commit ? [[`${pkg}.gitCommit`, release.commit] as [string, string]] : []),
    [`${pkg}.gitTreeState`, 'clean'],
    [`${pkg}.gitTag`, release.version],
  ];
}

/** Helm's Makefile on a release tag: BINARY_VERSION is the tag and the metadata is empty (its default). */
function helmVariables(release: ModuleRelease): Array<[string, string]> {
  const pkg = 'helm.sh/helm/v4/internal/version';
  return [
    [`${pkg}.version`, release.version],
    ...(release.commit ? [[`${pkg}.gitCommit`, release.commit] as [string, string]] : []),
    [`${pkg}.gitTreeState`, 'clean'],
  ];
}

/**
 * CoreDNS' Makefile: GitCommit from `git describe`; its version is a constant of coremain (CoreVersion), so a
 * build from the module says it either way. Left out when the proxy names no commit.
 */
function corednsVariables(release: ModuleRelease): Array<[string, string]> {
  return release.commit ? [['github.com/coredns/coredns/coremain.GitCommit', release.commit]] : [];
}

/** distribution's Makefile: the version, the revision and the main package of its version package. */
function registryVariables(release: ModuleRelease): Array<[string, string]> {
  const pkg = VERSIONED_MODULE.registry;
  return [
    [`${pkg}/version.version`, release.version],
    ...(release.commit ? [[`${pkg}/version.revision`, release.commit] as [string, string]] : []),
    [`${pkg}/version.mainpkg`, pkg],
  ];
}

const VARIABLES: Record<VersionedSet, (release: ModuleRelease) => Array<[string, string]>> = {
  kube: kubeVariables,
  argo: argoVariables,
  helm: helmVariables,
  coredns: corednsVariables,
  registry: registryVariables,
};

/** The `-X` flags of a set, one `-X pkg.var=value` each, in the order the upstream build gives them. */
export function versionLdflags(set: VersionedSet, release: ModuleRelease): string[] {
  return VARIABLES[set](release).map(([name, value]) => {
    if (/\s|'/.test(value)) throw new Error(`a version value holds a space or quote: ${name}=${value}`);
    return `-X ${name}=${value}`;
  });
}
