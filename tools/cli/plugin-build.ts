// npm run plugin:build [-- <dir>...]   does what `argo executor-plugin build <dir>` does (ConfigMap + README),
// after stamping the collection's version into plugin.yaml (the image tag from package.json and the minimum
// Argo version annotation), then writes the install files beside them (kustomization.yaml, agent-rbac.yaml,
// secret/settings examples, workflow-level-example.yaml) and runs the stricter lint. Without a directory it
// builds every plugin under manifests/. The collection files (manifests/kustomization.yaml,
// manifests/install/) are always rewritten. Exit 1 on a build error or a lint finding.
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  collectionContext,
  formatFinding,
  isCollectionApp,
  lintUniqueness,
  planCollection,
  planPluginPackage,
  pluginDirs,
  stampPluginYaml,
  writePluginDir,
} from '@app/manifests';

const root = resolve(import.meta.dirname, '../..');
const ctx = collectionContext(root);
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const targets = dirs.length > 0 ? dirs : pluginDirs(join(root, 'manifests'));
const show = (path: string) => relative(process.cwd(), path) || path;
let failed = false;

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  console.log(`${show(path)} created`);
}

for (const dir of targets) {
  try {
    const source = join(dir, 'plugin.yaml');
    const text = readFileSync(source, 'utf8');
    const app = isCollectionApp(ctx, basename(dir)) ? basename(dir) : undefined;
    const stamped = stampPluginYaml(text, ctx, app);
    if (stamped !== text) {
      writeFileSync(source, stamped);
      console.log(`${show(source)} stamped (image tag ${ctx.version}, Argo ${ctx.argoVersion})`);
    }
    for (const line of writePluginDir(dir)) console.log(`${show(line.replace(/ created$/, ''))} created`);
    const pkg = planPluginPackage(dir, ctx);
    for (const f of pkg.files.slice(2)) write(f.path, f.content);
    for (const f of pkg.obsolete) {
      rmSync(f);
      console.log(`${show(f)} removed`);
    }
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
const collection = planCollection(ctx);
for (const f of collection.files) write(f.path, f.content);
for (const finding of lintUniqueness(collection.packages)) {
  console.error(formatFinding(finding));
  failed = true;
}
process.exit(failed ? 1 : 0);
