// node tools/run-cli.mjs release-assets --owner <github owner> [--out dist/release]
// Writes the files a release publishes, flat: per plugin <app>-install.yaml (ConfigMap + agent RBAC, one
// `kubectl apply -f`), the ConfigMap alone, the Secret/settings examples and the workflow-level example, plus
// workflow-namespace-agent-rbac.yaml, release-notes.md (the version's CHANGELOG section) and SHA256SUMS.
// Images point at ghcr.io/<owner>/executor-plugins/<app>:<version>. Refuses a tree that fails manifests:check.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { collectionContext, planCollection, readChangelog, releaseAssets } from '@app/manifests';
import { exitWith, runCommand } from './kit/args.js';
import { imagePrefixOption } from './kit/owner-option.js';

const root = resolve(import.meta.dirname, '../..');

const USAGE = `usage: npm run release:assets -- --owner <github owner> [--out <dir>]

Writes the files a release publishes into <dir> (default dist/release, emptied first): per plugin
<app>-install.yaml (ConfigMap + agent RBAC), the ConfigMap alone, the Secret/settings examples and the
workflow-level example, workflow-namespace-agent-rbac.yaml, release-notes.md and SHA256SUMS. Images point at
ghcr.io/<owner>/executor-plugins/<app>:<version>. Refuses (exit 1) a tree that fails npm run manifests:check.`;

await runCommand(
  { name: 'release:assets', help: 'npm run release:assets -- --help' },
  process.argv.slice(2),
  {
    usage: USAGE,
    options: {
      owner: { type: 'string', required: true },
      out: { type: 'string', default: join(root, 'dist/release') },
    },
  },
  ({ values }) => {
    const prefix = imagePrefixOption(values.owner);
    const ctx = collectionContext(root);
    const plan = planCollection(ctx);
    if (plan.problems.length > 0) {
      for (const p of plan.problems) console.error(p);
      console.error('release-assets: fix the manifests first (npm run manifests:check)');
      return 1;
    }
    const out = resolve(values.out);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    for (const f of releaseAssets(plan, ctx, prefix, readChangelog(root))) {
      writeFileSync(join(out, f.path), f.content);
      console.log(`${relative(process.cwd(), join(out, f.path))} created`);
    }
    return 0;
  },
).then(exitWith);
