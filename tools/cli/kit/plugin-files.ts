// The files of a plugin app that the suites need (conformance, reliability, bench, the demo, test:plugin and the
// real-Argo examples find every plugin by its manifests/<app>/plugin.yaml): a plugin lacking one fails
// plugin-files.spec.ts, naming the file, rather than any suite leaving it out. demo/upstreams.ts (the stand-ins of
// its upstreams and the env pointing at them) is needed once the sidecar's env sets more than the kit's own
// LOG_LEVEL; a plugin without admin settings (`new-plugin --upstream none`) has none.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { HOSTS_ANNOTATION, type ExecutorPlugin } from '@app/manifests';

/** The executor plugins of the repository: apps/<app> with a manifests/<app>/plugin.yaml. */
export function pluginApps(root: string): string[] {
  return readdirSync(join(root, 'apps'))
    .filter((app) => existsSync(join(root, 'manifests', app, 'plugin.yaml')))
    .sort();
}

/** What `app` lacks of the files the suites need, each as its path in the repository. */
export function missingPluginFiles(root: string, app: string): string[] {
  const dir = join(root, 'apps', app);
  const manifest = readFileSync(join(root, 'manifests', app, 'plugin.yaml'), 'utf8');
  const needed = [
    'src/main.ts',
    ...(hasAdminSettings(manifest) ? ['demo/upstreams.ts'] : []),
    'test/conformance.json',
  ];
  const missing = needed.filter((file) => !existsSync(join(dir, file))).map((file) => `apps/${app}/${file}`);
  const src = existsSync(join(dir, 'src')) ? readdirSync(join(dir, 'src')) : [];
  // A plugin app has src/<name>.plugin.ts; the collection, src/collection.definition.ts.
  if (!src.some((f) => f.endsWith('.plugin.ts') || f === 'collection.definition.ts'))
    missing.push(`apps/${app}/src/<name>.plugin.ts`);
  const conformance = join(dir, 'test/conformance.json');
  if (existsSync(conformance)) {
    const conf = JSON.parse(readFileSync(conformance, 'utf8')) as { key?: unknown; config?: unknown };
    if (typeof conf.key !== 'string' || typeof conf.config !== 'object')
      missing.push(`apps/${app}/test/conformance.json: "key" and "config"`);
  }
  const examples = join(root, 'manifests', app, 'examples');
  // A collection runs the examples of the plugins it hosts.
  const hosts = manifest.includes(HOSTS_ANNOTATION);
  if (!hosts && (!existsSync(examples) || !readdirSync(examples).some((f) => f.endsWith('.yaml'))))
    missing.push(`manifests/${app}/examples/*.yaml`);
  if (!existsSync(join(root, 'docs', `${app}.md`))) missing.push(`docs/${app}.md`);
  return missing;
}

/** Whether the sidecar's env (manifests/<app>/plugin.yaml) sets anything beside the kit's own LOG_LEVEL. */
function hasAdminSettings(manifest: string): boolean {
  const container = (parse(manifest) as ExecutorPlugin | null)?.spec?.sidecar?.container;
  return (container?.env ?? []).some((e) => e.name !== 'LOG_LEVEL');
}
