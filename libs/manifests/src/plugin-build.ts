import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configMapFile, toConfigMap } from './configmap.js';
import {
  parseExecutorPlugin,
  PluginManifestError,
  validateExecutorPlugin,
  type ExecutorPlugin,
} from './executor-plugin.js';
import { refuseLinks, writeNoFollow } from './no-follow-write.js';
import { pluginReadme } from './readme.js';

export interface BuiltPlugin {
  plugin: ExecutorPlugin;
  files: Array<{ path: string; content: string }>;
}

/** What `argo executor-plugin build DIR` produces, without writing it. */
export function buildPluginDir(dir: string): BuiltPlugin {
  const source = join(dir, 'plugin.yaml');
  if (!existsSync(source)) throw new PluginManifestError(`open ${source}: no such file or directory`);
  const plugin = parseExecutorPlugin(readFileSync(source, 'utf8'), source);
  const servers = readdirSync(dir)
    .filter((f) => /^server\./.test(f))
    .sort();
  if (servers.length > 1)
    throw new PluginManifestError(`plugin ${plugin.metadata.name ?? ''} has more than one server.* file`);
  if (servers.length === 1)
    plugin.spec.sidecar.container.args = [readFileSync(join(dir, servers[0]), 'utf8')];
  validateExecutorPlugin(plugin);
  const cm = toConfigMap(plugin);
  return {
    plugin,
    files: [
      { path: join(dir, `${cm.metadata.name}-configmap.yaml`), content: configMapFile(cm) },
      { path: join(dir, 'README.md'), content: pluginReadme(plugin) },
    ],
  };
}

/** `argo executor-plugin build DIR`: writes the ConfigMap and README, returns the "<path> created" lines. */
export function writePluginDir(dir: string): string[] {
  const built = buildPluginDir(dir);
  for (const f of built.files) refuseLinks(f.path, dir);
  return built.files.map((f) => {
    writeNoFollow(f.path, f.content, dir);
    return `${f.path} created`;
  });
}
