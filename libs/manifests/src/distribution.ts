import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { GENERATED_BY, pluginAgentRbacFile, workflowNamespaceRbacFile } from './agent-rbac.js';
import { collectionKustomization, pluginDirs } from './collection.js';
import type { ConfigMap } from './configmap.js';
import { exampleObjectsFile } from './example-objects.js';
import type { ExecutorPlugin } from './executor-plugin.js';
import { marshalGoYaml } from './go-yaml.js';
import {
  formatFinding,
  lintCollection,
  lintExecutorPlugin,
  lintSharedKeys,
  hostedPluginNames,
  type LintFinding,
} from './lint.js';
import { refuseLinks, writeNoFollow } from './no-follow-write.js';
import { lintNaming } from './naming.js';
import { buildPluginDir } from './plugin-build.js';
import { kustomizeReadme } from './readme.js';
import { hostedPluginYaml, providerVariableFindings, withCollectionEnv } from './hosted-env.js';
import { sharedAgentFiles, sharedAgentVersionProblems } from './shared-agent.js';
import { pluginsChartFiles } from './plugins-chart.js';
import { lintVersioning, type CollectionContext } from './versioning.js';
import { workflowLevelExampleFile } from './workflow-level.js';

export interface GeneratedFile {
  path: string;
  content: string;
}

/** Everything `npm run plugin:build` derives from one plugin directory. */
export interface PluginPackage {
  dir: string;
  /** The directory name: the app (and image) name for the collection's plugins. */
  app: string;
  /** plugin.yaml, relative to the repository root, for messages. */
  file: string;
  plugin: ExecutorPlugin;
  configMap: ConfigMap;
  /** The ConfigMap (as `argo executor-plugin build` writes it), the README, then the install files. */
  files: GeneratedFile[];
  /** Generated files of an earlier build that this build no longer writes. */
  obsolete: string[];
  findings: LintFinding[];
}

export const KUSTOMIZATION = 'kustomization.yaml';
export const AGENT_RBAC = 'agent-rbac.yaml';
export const SECRET_EXAMPLE = 'secret.example.yaml';
export const SETTINGS_EXAMPLE = 'settings.example.yaml';
export const WORKFLOW_LEVEL_EXAMPLE = 'workflow-level-example.yaml';
const OPTIONAL_FILES = [SECRET_EXAMPLE, SETTINGS_EXAMPLE];

function kustomization(resources: string[], comment: string[]): string {
  return (
    GENERATED_BY +
    comment.map((c) => `# ${c}\n`).join('') +
    marshalGoYaml({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources })
  );
}

/** The example workflow files of a plugin directory (examples/*.yaml). */
export function pluginExamples(dir: string): Array<{ name: string; text: string }> {
  const folder = join(dir, 'examples');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }));
}

/** Whether a plugin directory belongs to an app of this repository (so its image is built by release.yml). */
export function isCollectionApp(ctx: CollectionContext, app: string): boolean {
  return existsSync(join(ctx.root, 'apps', app, 'src/main.ts'));
}

/** Builds one plugin directory in memory: ConfigMap, README, install files and every lint finding. */
export function planPluginPackage(dir: string, ctx: CollectionContext): PluginPackage {
  const app = basename(dir);
  const file = relative(ctx.root, join(dir, 'plugin.yaml'));
  const built = buildPluginDir(dir);
  const { plugin } = built;
  const configMapFile = basename(built.files[0].path);
  const secrets = exampleObjectsFile(plugin, 'Secret', file);
  // Argo's README says `kubectl apply -f` the ConfigMap; here the kustomization installs it with its RBAC.
  const readme = kustomizeReadme(plugin, relative(ctx.root, dir), secrets && SECRET_EXAMPLE);
  const files: GeneratedFile[] = [built.files[0], { path: built.files[1].path, content: readme }];
  const add = (name: string, content: string | undefined) => {
    if (content !== undefined) files.push({ path: join(dir, name), content });
  };
  add(
    KUSTOMIZATION,
    kustomization(
      [configMapFile, AGENT_RBAC],
      [
        `kubectl apply -n <namespace> -k ${relative(ctx.root, dir)}: the plugin's ConfigMap and the agent RBAC.`,
        ...(secrets ? [`Create the Secret first (${SECRET_EXAMPLE}).`] : []),
      ],
    ),
  );
  add(AGENT_RBAC, pluginAgentRbacFile(plugin, app));
  add(SECRET_EXAMPLE, secrets);
  add(SETTINGS_EXAMPLE, exampleObjectsFile(plugin, 'ConfigMap', file));
  add(WORKFLOW_LEVEL_EXAMPLE, workflowLevelExampleFile(plugin, app, pluginExamples(dir)));
  const planned = new Set(files.map((f) => basename(f.path)));
  return {
    dir,
    app,
    file,
    plugin,
    configMap: configMapOf(built.files[0].content),
    files,
    obsolete: OPTIONAL_FILES.filter((f) => !planned.has(f) && existsSync(join(dir, f))).map((f) =>
      join(dir, f),
    ),
    findings: [
      ...hostingFindings(dir, app, file, ctx),
      ...lintExecutorPlugin(plugin, file),
      ...lintVersioning(plugin, file, ctx, isCollectionApp(ctx, app) ? app : undefined),
      ...lintNaming(plugin, file, isCollectionApp(ctx, app) ? app : undefined),
    ],
  };
}

/**
 * The plugin.yaml text `npm run plugin:build` writes for a plugin directory: the collection's env generated from
 * the plugins it hosts; any other plugin.yaml as it is.
 */
export function withGeneratedEnv(
  text: string,
  app: string,
  ctx: CollectionContext,
  serveAlso: readonly string[] = [],
): string {
  if (!ctx.hosting || app !== ctx.hosting.app) return text;
  return withCollectionEnv(text, ctx.hosting, hostedPluginYaml(ctx.root, ctx.hosting), serveAlso);
}

/** The collection's env is what its hosted plugins make; a hosted plugin's plugin.yaml names its providers' variables. */
function hostingFindings(dir: string, app: string, file: string, ctx: CollectionContext): LintFinding[] {
  if (!ctx.hosting) return [];
  const text = readFileSync(join(dir, 'plugin.yaml'), 'utf8');
  if (app === ctx.hosting.app)
    return withGeneratedEnv(text, app, ctx) === text
      ? []
      : [
          {
            file,
            field: 'spec.sidecar.container.env',
            problem: 'differs from the env its hosted plugins make (run npm run plugin:build)',
          },
        ];
  const hosted = ctx.hosting.plugins.find((p) => p.name === app);
  return hosted ? providerVariableFindings(text, file, hosted.providers) : [];
}

function configMapOf(text: string): ConfigMap {
  // The text is ours (marshalGoYaml of a ConfigMap): JSON-compatible YAML.
  return JSON.parse(JSON.stringify(parseYaml(text))) as ConfigMap;
}

/** The whole manifests/ tree: every plugin package, the collection files and every problem. */
export interface CollectionPlan {
  packages: PluginPackage[];
  files: GeneratedFile[];
  problems: string[];
  /** Findings that do not fail the check (printed). */
  warnings: string[];
}

export const INSTALL_DIR = 'install';
export const WORKFLOW_NAMESPACE_DIR = join(INSTALL_DIR, 'workflow-namespace');

/** Collection-wide rules: one port, one plugin name and one container name per plugin. */
export function lintUniqueness(packages: PluginPackage[]): LintFinding[] {
  const out = lintCollection(packages.map((p) => ({ plugin: p.plugin, file: p.file })));
  for (const [field, value] of [
    ['metadata.name', (p: PluginPackage) => p.plugin.metadata.name],
    ['spec.sidecar.container.name', (p: PluginPackage) => p.plugin.spec.sidecar.container.name],
  ] as const) {
    const seen = new Map<string, string>();
    for (const p of packages) {
      const v = value(p);
      if (!v) continue;
      const other = seen.get(v);
      if (other) out.push({ file: p.file, field, problem: `${v} is also used by ${other}` });
      else seen.set(v, p.file);
    }
  }
  return out;
}

export function planCollection(ctx: CollectionContext): CollectionPlan {
  const manifests = join(ctx.root, 'manifests');
  const packages: PluginPackage[] = [];
  const problems: string[] = [];
  for (const dir of pluginDirs(manifests)) {
    try {
      packages.push(planPluginPackage(dir, ctx));
    } catch (err) {
      problems.push(`${relative(ctx.root, dir)}: ${(err as Error).message}`);
    }
  }
  for (const p of packages) problems.push(...p.findings.map(formatFinding));
  problems.push(...lintUniqueness(packages).map(formatFinding));
  // `kubectl apply -k manifests` installs the single plugins; a plugin hosting several keys (the collection)
  // is the alternative to them, installed on its own (`-k manifests/collection`), never beside them.
  const singles = packages.filter((p) => !hostsPlugins(p.plugin));
  const warnings = lintSharedKeys(singles.map((p) => ({ plugin: p.plugin, file: p.file }))).map(
    formatFinding,
  );
  const files: GeneratedFile[] = [];
  if (packages.length > 0) {
    files.push({
      path: join(manifests, KUSTOMIZATION),
      content: collectionKustomization(
        manifests,
        singles.map((p) => p.files[0].path),
      ),
    });
    files.push(
      {
        path: join(manifests, WORKFLOW_NAMESPACE_DIR, KUSTOMIZATION),
        content: kustomization(
          [AGENT_RBAC],
          [
            'kubectl apply -n <workflow namespace> -k manifests/install/workflow-namespace: for plugins installed',
            "in Argo's installation namespace, the agent RBAC every workflow namespace needs (plus the plugins'",
            'Secrets, see manifests/<plugin>/secret.example.yaml).',
          ],
        ),
      },
      {
        path: join(manifests, WORKFLOW_NAMESPACE_DIR, AGENT_RBAC),
        content: workflowNamespaceRbacFile(packages.map((p) => p.plugin)),
      },
    );
  }
  const collection = packages.find((p) => p.app === 'collection');
  if (collection) files.push(...sharedAgentFiles(ctx.root, collection.plugin));
  if (packages.length > 0) files.push(...pluginsChartFiles(ctx.root, packages));
  problems.push(...sharedAgentVersionProblems(ctx.root, ctx.version));
  return { packages, files, problems, warnings };
}

/** A plugin hosting others (the collection): installed instead of the single plugins, never beside them. */
export function hostsPlugins(plugin: ExecutorPlugin): boolean {
  return hostedPluginNames(plugin).length > 0;
}

/** Writes generated files below `base`; none is written when any of them is (or lies under) a symbolic link. */
function writeGenerated(files: GeneratedFile[], base: string): string[] {
  for (const f of files) refuseLinks(f.path, base);
  for (const f of files) writeNoFollow(f.path, f.content, base);
  return files.map((f) => f.path);
}

/**
 * Writes everything `planPluginPackage` derives from a plugin directory and removes obsolete generated files.
 * Returns the package and the paths written. (plugin.yaml itself is stamped by `npm run plugin:build`.)
 */
export function writePluginPackage(
  dir: string,
  ctx: CollectionContext,
): { pkg: PluginPackage; written: string[] } {
  const pkg = planPluginPackage(dir, ctx);
  const written = writeGenerated(pkg.files, dir);
  for (const f of pkg.obsolete) rmSync(f);
  return { pkg, written };
}

/** Writes the collection files (manifests/kustomization.yaml, manifests/install/...); returns the plan. */
export function writeCollectionFiles(ctx: CollectionContext): CollectionPlan & { written: string[] } {
  const plan = planCollection(ctx);
  return { ...plan, written: writeGenerated(plan.files, join(ctx.root, 'manifests')) };
}
