// node tools/run-cli.mjs release-check --tag v1.2.3 --owner <github owner>
// Decides whether a tag can be released (it must be v<package.json version> and CHANGELOG.md must have that
// version's section) and prints what release.yml needs, as GitHub step outputs (`key=value` lines): the
// version, the image prefix ghcr.io/<owner, lower-cased>/executor-plugins and the apps to build (JSON).
import { resolve } from 'node:path';
import { collectionApps, collectionContext, readChangelog, releaseProblems } from '@app/manifests';
import { exitWith, runCommand } from './kit/args.js';
import { imagePrefixOption } from './kit/owner-option.js';

const root = resolve(import.meta.dirname, '../..');

const USAGE = `usage: npm run release:check -- --tag v<version> --owner <github owner>

Whether the tag can be released: it must be v<package.json version>, and CHANGELOG.md must have that
version's section. Prints the GitHub step outputs release.yml uses: version=, image-prefix= (ghcr.io/<owner,
lower-cased>/executor-plugins) and apps= (JSON). Exit 1 with one line per problem.`;

await runCommand(
  { name: 'release:check', help: 'npm run release:check -- --help' },
  process.argv.slice(2),
  {
    usage: USAGE,
    options: { tag: { type: 'string', required: true }, owner: { type: 'string', required: true } },
  },
  ({ values }) => {
    const prefix = imagePrefixOption(values.owner);
    const ctx = collectionContext(root);
    const problems = releaseProblems(ctx, values.tag, readChangelog(root));
    const apps = collectionApps(root);
    if (apps.length === 0) problems.push('no apps/<app>/src/main.ts to build');
    for (const p of problems) console.error(p);
    if (problems.length > 0) return 1;
    console.log(`version=${ctx.version}`);
    console.log(`image-prefix=${prefix}`);
    console.log(`apps=${JSON.stringify(apps)}`);
    return 0;
  },
).then(exitWith);
