// node tools/run-cli.mjs release-check --tag v1.2.3 --owner <github owner>
// Decides whether a tag can be released (it must be v<package.json version> and CHANGELOG.md must have that
// version's section) and prints what release.yml needs, as GitHub step outputs (`key=value` lines): the
// version, the image prefix ghcr.io/<owner, lower-cased>/executor-plugins and the apps to build (JSON).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  collectionApps,
  collectionContext,
  imagePrefixFor,
  readChangelog,
  releaseProblems,
} from '@app/manifests';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { tag: { type: 'string' }, owner: { type: 'string' } } });
if (!values.tag || !values.owner) {
  console.error('usage: release-check --tag v<version> --owner <github owner>');
  process.exit(2);
}
const ctx = collectionContext(root);
const problems = releaseProblems(ctx, values.tag, readChangelog(root));
const apps = collectionApps(root);
if (apps.length === 0) problems.push('no apps/<app>/src/main.ts to build');
for (const p of problems) console.error(p);
if (problems.length > 0) process.exit(1);
console.log(`version=${ctx.version}`);
console.log(`image-prefix=${imagePrefixFor(values.owner)}`);
console.log(`apps=${JSON.stringify(apps)}`);
