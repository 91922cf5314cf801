// node tools/run-cli.mjs release-assets --owner <github owner> [--out dist/release]
// Writes the files a release publishes, flat: per plugin <app>-install.yaml (ConfigMap + agent RBAC, one
// `kubectl apply -f`), the ConfigMap alone, the Secret/settings examples and the workflow-level example, plus
// workflow-namespace-agent-rbac.yaml, release-notes.md (the version's CHANGELOG section) and SHA256SUMS.
// Images point at ghcr.io/<owner>/executor-plugins/<app>:<version>. Refuses a tree that fails manifests:check.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  collectionContext,
  imagePrefixFor,
  planCollection,
  readChangelog,
  releaseAssets,
} from '@app/manifests';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { owner: { type: 'string' }, out: { type: 'string', default: join(root, 'dist/release') } },
});
if (!values.owner) {
  console.error('usage: release-assets --owner <github owner> [--out <dir>]');
  process.exit(2);
}
const ctx = collectionContext(root);
const plan = planCollection(ctx);
if (plan.problems.length > 0) {
  for (const p of plan.problems) console.error(p);
  console.error('release-assets: fix the manifests first (npm run manifests:check)');
  process.exit(1);
}
const out = resolve(values.out);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const f of releaseAssets(plan, ctx, imagePrefixFor(values.owner), readChangelog(root))) {
  writeFileSync(join(out, f.path), f.content);
  console.log(`${relative(process.cwd(), join(out, f.path))} created`);
}
