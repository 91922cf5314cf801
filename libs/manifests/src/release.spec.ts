import { changelogSection, releaseProblems } from './release.js';
import { ARGO_MIN_VERSION, type CollectionContext } from './versioning.js';

const changelog = `# Changelog

## [Unreleased]

### Fixed

- something not yet released

## [1.2.0] - 2026-11-21

### Added

- the thing

## [1.1.0] - 2026-10-01

- older

[Unreleased]: https://example.com/compare/v1.2.0...HEAD
[1.2.0]: https://example.com/releases/tag/v1.2.0
`;
const ctx: CollectionContext = { root: '/r', version: '1.2.0', argoVersion: ARGO_MIN_VERSION };

describe('release rules', () => {
  it("takes a version's CHANGELOG section, up to the next section or the link list", () => {
    expect(changelogSection(changelog, '1.2.0')).toBe('### Added\n\n- the thing');
    expect(changelogSection(changelog, '1.1.0')).toBe('- older');
    expect(changelogSection(changelog, '9.9.9')).toBeUndefined();
    expect(changelogSection('## [1.2.0]\n- undated\n', '1.2.0')).toBeUndefined();
  });

  it('releases only v<package.json version> with a CHANGELOG section', () => {
    expect(releaseProblems(ctx, 'v1.2.0', changelog)).toEqual([]);
    expect(releaseProblems(ctx, 'v1.2.1', changelog)).toEqual([
      "tag v1.2.1 is not v1.2.0 (package.json's version): bump the version or fix the tag",
    ]);
    expect(releaseProblems(ctx, '1.2.0', changelog)).toHaveLength(1);
    expect(releaseProblems({ ...ctx, version: '1.3.0' }, 'v1.3.0', changelog)).toEqual([
      'CHANGELOG.md has no "## [1.3.0] - YYYY-MM-DD" section',
    ]);
  });
});
