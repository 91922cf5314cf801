// npm run plugin:build [-- <dir>...]   does what `argo executor-plugin build <dir>` does (ConfigMap + README),
// after stamping the collection's version into plugin.yaml (the image tag from package.json and the minimum
// Argo version annotation), then writes the install files beside them (kustomization.yaml, agent-rbac.yaml,
// secret/settings examples, workflow-level-example.yaml) and runs the stricter lint. Without a directory it
// builds every plugin under manifests/. The collection files (manifests/kustomization.yaml,
// manifests/install/) are always rewritten. Exit 1 on a build error or a lint finding.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import {
  collectionContext,
  formatFinding,
  isCollectionApp,
  lintUniqueness,
  pluginDirs,
  stampPluginYaml,
  writeCollectionFiles,
  writePluginPackage,
} from '@app/manifests';

const root = resolve(import.meta.dirname, '../..');
const ctx = collectionContext(root);
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const targets = dirs.length > 0 ? dirs : pluginDirs(join(root, 'manifests'));
const show = (path: string) => relative(process.cwd(), path) || path;
let failed = false;

for (const dir of targets) {
  try {
    const source = join(dir, 'plugin.yaml');
    const text = readFileSync(source, 'utf8');
    const stamped = stampPluginYaml(
      text,
      ctx,
      isCollectionApp(ctx, basename(dir)) ? basename(dir) : undefined,
    );
    if (stamped !== text) {
      writeFileSync(source, stamped);
      console.log(`${show(source)} stamped (image tag ${ctx.version}, Argo ${ctx.argoVersion})`);
    }
    const { pkg, written } = writePluginPackage(dir, ctx);
    for (const path of written) console.log(`${show(path)} created`);
    for (const path of pkg.obsolete) console.log(`${show(path)} removed`);
    for (const finding of pkg.findings) {
      console.error(formatFinding(finding));
      failed = true;
    }
  } catch (err) {
    console.error((err as Error).message);
    failed = true;
  }
}

// The collection files depend on every plugin, so they are rebuilt from the whole tree.
const collection = writeCollectionFiles(ctx);
for (const path of collection.written) console.log(`${show(path)} created`);
for (const finding of lintUniqueness(collection.packages)) {
  console.error(formatFinding(finding));
  failed = true;
}
process.exit(failed ? 1 : 0);
