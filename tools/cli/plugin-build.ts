// npm run plugin:build -- <dir>   does what `argo executor-plugin build <dir>` does (ConfigMap + README), then
// runs the stricter lint. Without a directory it rebuilds every plugin under manifests/ and the collection
// kustomization. Exit 1 on a build error or a lint finding.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  buildPluginDir,
  collectionKustomization,
  formatFinding,
  lintCollection,
  lintExecutorPlugin,
  pluginDirs,
  writePluginDir,
} from '@app/manifests';

const root = resolve(import.meta.dirname, '../..');
const manifests = join(root, 'manifests');
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const targets = dirs.length > 0 ? dirs : pluginDirs(manifests);
let failed = false;
const built = [];
for (const dir of targets) {
  try {
    for (const line of writePluginDir(dir)) console.log(line);
    const { plugin, files } = buildPluginDir(dir);
    built.push({ plugin, file: join(dir, 'plugin.yaml'), configMap: files[0].path });
    for (const finding of lintExecutorPlugin(plugin, join(dir, 'plugin.yaml'))) {
      console.error(formatFinding(finding));
      failed = true;
    }
  } catch (err) {
    console.error((err as Error).message);
    failed = true;
  }
}
if (dirs.length === 0) {
  for (const finding of lintCollection(built)) {
    console.error(formatFinding(finding));
    failed = true;
  }
  const kustomization = join(manifests, 'kustomization.yaml');
  writeFileSync(
    kustomization,
    collectionKustomization(
      manifests,
      built.map((b) => b.configMap),
    ),
  );
  console.log(`${kustomization} created`);
}
process.exit(failed ? 1 : 0);
