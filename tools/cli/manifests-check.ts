// npm run manifests:check   fails when a generated manifest is stale, missing or obsolete (regenerate with
// `npm run plugin:build`), when a plugin.yaml is not stamped with the collection's version (image tag =
// package.json version, the minimum Argo version annotation), or when a plugin fails the lint.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { collectionContext, planCollection, type GeneratedFile } from '@app/manifests';

const root = resolve(import.meta.dirname, '../..');
const plan = planCollection(collectionContext(root));
const problems = [...plan.problems];

function compare(f: GeneratedFile): void {
  const path = relative(root, f.path);
  if (!existsSync(f.path)) problems.push(`${path}: missing (run npm run plugin:build)`);
  else if (readFileSync(f.path, 'utf8') !== f.content)
    problems.push(`${path}: stale (run npm run plugin:build)`);
}

for (const pkg of plan.packages) {
  pkg.files.forEach(compare);
  for (const f of pkg.obsolete) problems.push(`${relative(root, f)}: obsolete (run npm run plugin:build)`);
}
plan.files.forEach(compare);
for (const w of plan.warnings) console.error(w);
for (const p of problems) console.error(p);
console.log(`manifests:check: ${plan.packages.length} plugins, ${problems.length} problems`);
process.exit(problems.length > 0 ? 1 : 0);
