// npm run manifests:check   fails when a generated manifest is stale (regenerate with `npm run plugin:build`)
// or when a plugin fails the lint.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
  buildPluginDir,
  collectionKustomization,
  formatFinding,
  lintCollection,
  lintExecutorPlugin,
  pluginDirs,
} from '@app/manifests';

const root = resolve(import.meta.dirname, '../..');
const manifests = join(root, 'manifests');
const problems: string[] = [];
const built = [];
for (const dir of pluginDirs(manifests)) {
  try {
    const { plugin, files } = buildPluginDir(dir);
    built.push({ plugin, file: relative(root, join(dir, 'plugin.yaml')), configMap: files[0].path });
    for (const f of files) {
      if (!existsSync(f.path)) problems.push(`${relative(root, f.path)}: missing (run npm run plugin:build)`);
      else if (readFileSync(f.path, 'utf8') !== f.content)
        problems.push(`${relative(root, f.path)}: stale (run npm run plugin:build)`);
    }
    problems.push(...lintExecutorPlugin(plugin, relative(root, join(dir, 'plugin.yaml'))).map(formatFinding));
  } catch (err) {
    problems.push(`${relative(root, dir)}: ${(err as Error).message}`);
  }
}
problems.push(...lintCollection(built).map(formatFinding));
const kustomization = join(manifests, 'kustomization.yaml');
const expected = collectionKustomization(
  manifests,
  built.map((b) => b.configMap),
);
if (built.length > 0 && (!existsSync(kustomization) || readFileSync(kustomization, 'utf8') !== expected)) {
  problems.push('manifests/kustomization.yaml: stale (run npm run plugin:build)');
}
for (const p of problems) console.error(p);
console.log(`manifests:check: ${built.length} plugins, ${problems.length} problems`);
process.exit(problems.length > 0 ? 1 : 0);
