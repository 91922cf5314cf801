// npm run manifests:check: fails when a generated manifest is stale, missing or obsolete, when an app's
// plugin.yaml is not stamped with the collection's version, or when a plugin fails the lint. Writes nothing.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { collectionContext, planCollection, type GeneratedFile } from '@app/manifests';
import { exitWith, runCommand } from './kit/args.js';
import { collectionHosting } from './kit/collection-hosting.js';

const root = resolve(import.meta.dirname, '../..');

const USAGE = `usage: npm run manifests:check

Checks, without writing anything, that every generated file under manifests/ is what npm run plugin:build
would write (missing, stale or obsolete files are reported), that the collection's apps are stamped with its
version (image tag = package.json version, the minimum Argo version annotation) and that every plugin passes
the lint. Exit 0 if all is well, 1 with one line per problem.`;

await runCommand(
  { name: 'manifests:check', help: 'npm run manifests:check -- --help' },
  process.argv.slice(2),
  { usage: USAGE, options: {} },
  () => {
    const plan = planCollection(collectionContext(root, collectionHosting()));
    const problems = [...plan.problems];
    const compare = (f: GeneratedFile): void => {
      const path = relative(root, f.path);
      if (!existsSync(f.path)) problems.push(`${path}: missing (run npm run plugin:build)`);
      else if (readFileSync(f.path, 'utf8') !== f.content)
        problems.push(`${path}: stale (run npm run plugin:build)`);
    };
    for (const pkg of plan.packages) {
      pkg.files.forEach(compare);
      for (const f of pkg.obsolete)
        problems.push(`${relative(root, f)}: obsolete (run npm run plugin:build)`);
    }
    plan.files.forEach(compare);
    for (const w of plan.warnings) console.error(w);
    for (const p of problems) console.error(p);
    console.log(`manifests:check: ${plan.packages.length} plugins, ${problems.length} problems`);
    return problems.length > 0 ? 1 : 0;
  },
).then(exitWith);
