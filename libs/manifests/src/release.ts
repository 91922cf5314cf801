import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pluginAgentRbacObjects, workflowNamespaceRbacFile, yamlDocuments } from './agent-rbac.js';
import { configMapFile, toConfigMap } from './configmap.js';
import {
  pluginExamples,
  SECRET_EXAMPLE,
  SETTINGS_EXAMPLE,
  type CollectionPlan,
  type GeneratedFile,
  type PluginPackage,
} from './distribution.js';
import type { ExecutorPlugin } from './executor-plugin.js';
import { withImagePrefix, type CollectionContext } from './versioning.js';
import { workflowLevelExampleFile } from './workflow-level.js';

/** The apps release.yml builds an image for: every apps/<app> with a src/main.ts, in name order. */
export function collectionApps(root: string): string[] {
  const apps = join(root, 'apps');
  if (!existsSync(apps)) return [];
  return readdirSync(apps)
    .filter((a) => existsSync(join(apps, a, 'src/main.ts')))
    .sort();
}

/** The `## [x.y.z] - YYYY-MM-DD` section of a Keep-a-Changelog file, without its heading. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`## [${version}] - `));
  if (start < 0 || !/^## \[[^\]]+\] - \d{4}-\d{2}-\d{2}$/.test(lines[start])) return undefined;
  const end = lines.findIndex((l, i) => i > start && (l.startsWith('## ') || /^\[[^\]]+\]: /.test(l)));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

/** Why a tag must not be released: it is not `v<package.json version>`, or the CHANGELOG has no section. */
export function releaseProblems(ctx: CollectionContext, tag: string, changelog: string): string[] {
  const problems: string[] = [];
  if (tag !== `v${ctx.version}`)
    problems.push(
      `tag ${tag} is not v${ctx.version} (package.json's version): bump the version or fix the tag`,
    );
  if (!changelogSection(changelog, ctx.version))
    problems.push(`CHANGELOG.md has no "## [${ctx.version}] - YYYY-MM-DD" section`);
  return problems;
}

function withPrefix(plugin: ExecutorPlugin, prefix: string): ExecutorPlugin {
  const container = plugin.spec.sidecar.container;
  return {
    ...plugin,
    spec: {
      sidecar: {
        ...plugin.spec.sidecar,
        container: { ...container, image: withImagePrefix(container.image ?? '', prefix) },
      },
    },
  };
}

function installFile(
  pkg: PluginPackage,
  plugin: ExecutorPlugin,
  ctx: CollectionContext,
  hasSecret: boolean,
): string {
  const name = plugin.metadata.name ?? '';
  const header = [
    `# executor-plugins ${ctx.version}: the ${name} executor plugin (${pkg.app}) for Argo Workflows ${ctx.argoVersion}.`,
    `#   kubectl apply -n <namespace> -f ${pkg.app}-install.yaml`,
    '# The ConfigMap registers the plugin (the controller needs ARGO_EXECUTOR_PLUGINS=true); the Role and',
    "# RoleBinding let Argo's agent run plugin templates as the namespace's default service account.",
    ...(hasSecret ? [`# Create the plugin's Secret first: ${pkg.app}-secret.example.yaml.`] : []),
    `# Uninstall: kubectl delete -n <namespace> -f ${pkg.app}-install.yaml`,
  ];
  return [
    header.join('\n'),
    configMapFile(toConfigMap(plugin)).trimEnd(),
    '---',
    yamlDocuments(pluginAgentRbacObjects(plugin, pkg.app)),
  ].join('\n');
}

/**
 * The files a GitHub release publishes, flat (release assets have no folders), with every collection image
 * under `imagePrefix` (the publishing owner's registry path). Ends with SHA256SUMS over all of them.
 */
export function releaseAssets(
  plan: CollectionPlan,
  ctx: CollectionContext,
  imagePrefix: string,
  changelog: string,
): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  for (const pkg of plan.packages) {
    const plugin = withPrefix(pkg.plugin, imagePrefix);
    const generated = new Map(pkg.files.map((f) => [basename(f.path), f.content]));
    const secret = generated.get(SECRET_EXAMPLE);
    const settings = generated.get(SETTINGS_EXAMPLE);
    files.push(
      { path: `${pkg.app}-install.yaml`, content: installFile(pkg, plugin, ctx, secret !== undefined) },
      { path: `${pkg.configMap.metadata.name}-configmap.yaml`, content: configMapFile(toConfigMap(plugin)) },
      {
        path: `${pkg.app}-workflow-level-example.yaml`,
        content: workflowLevelExampleFile(plugin, pkg.app, pluginExamples(pkg.dir)),
      },
    );
    if (secret) files.push({ path: `${pkg.app}-secret.example.yaml`, content: secret });
    if (settings) files.push({ path: `${pkg.app}-settings.example.yaml`, content: settings });
  }
  files.push({
    path: 'workflow-namespace-agent-rbac.yaml',
    content: workflowNamespaceRbacFile(plan.packages.map((p) => p.plugin)),
  });
  files.push({
    path: 'release-notes.md',
    content: `${changelogSection(changelog, ctx.version) ?? ''}\n`,
  });
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  const sums = files.map((f) => `${createHash('sha256').update(f.content).digest('hex')}  ${f.path}`);
  files.push({ path: 'SHA256SUMS', content: `${sums.join('\n')}\n` });
  return files;
}

export function readChangelog(root: string): string {
  const path = join(root, 'CHANGELOG.md');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}
