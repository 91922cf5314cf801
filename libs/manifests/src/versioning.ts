import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument, Scalar } from 'yaml';
import type { ExecutorPlugin } from './executor-plugin.js';
import type { CollectionHosting } from './hosted-env.js';
import type { LintFinding } from './lint.js';

/**
 * The oldest Argo Workflows every plugin of the collection works with. The plugin kit needs
 * `workflow.metadata.uid` and `namespace` in each request (the execution key and the logs are built on them,
 * and an envelope without them fails the node). Argo added both in PR #9784 (fixes #8573), after v3.4.0,
 * which sent only the name; v3.5 is the first minor release that has them from its first patch.
 */
export const ARGO_MIN_VERSION = '>= v3.5';
/** Workflow-level plugins (`spec.executorPlugins`) arrived in Argo v4.1.0 (#15234). */
export const ARGO_WORKFLOW_LEVEL_MIN_VERSION = '>= v4.1';

export const VERSION_ANNOTATION = 'workflows.argoproj.io/version';
export const DESCRIPTION_ANNOTATION = 'workflows.argoproj.io/description';

/** The registry path plugin.yaml files use; a release rewrites it to the publishing owner's. */
export const DEFAULT_IMAGE_PREFIX = 'ghcr.io/executor-plugins/executor-plugins';

/** What every generated file depends on besides the plugin: the collection's version and where it lives. */
export interface CollectionContext {
  root: string;
  /** package.json `version`: the tag of every image. */
  version: string;
  argoVersion: string;
  /** The collection's hosted plugins, from its code: its env is generated from them, their providers checked. */
  hosting?: CollectionHosting;
}

export function collectionContext(root: string, hosting?: CollectionHosting): CollectionContext {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  if (!pkg.version || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(pkg.version))
    throw new Error(`package.json: version "${pkg.version ?? ''}" is not a semantic version`);
  return { root, version: pkg.version, argoVersion: ARGO_MIN_VERSION, hosting };
}

/** `ghcr.io/<owner>/executor-plugins/<app>:<version>`, the owner lower-cased as registries require. */
export function imagePrefixFor(owner: string): string {
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(owner))
    throw new Error(`"${owner}" is not a GitHub owner name`);
  return `ghcr.io/${owner.toLowerCase()}/executor-plugins`;
}

const COLLECTION_IMAGE =
  /^(?<registry>[a-z0-9.-]+(?::\d+)?)\/(?<owner>[a-z0-9-]+)\/executor-plugins\/(?<app>[a-z0-9-]+):(?<tag>[\w.-]+)$/;

/** The parts of a collection image reference, or undefined for any other image. */
export function parseCollectionImage(
  image: string,
): { prefix: string; app: string; tag: string } | undefined {
  const m = COLLECTION_IMAGE.exec(image);
  if (!m?.groups) return undefined;
  const { registry, owner, app, tag } = m.groups;
  return { prefix: `${registry}/${owner}/executor-plugins`, app, tag };
}

/** The same image published under another prefix (a fork's registry). Other images are left alone. */
export function withImagePrefix(image: string, prefix: string): string {
  const parsed = parseCollectionImage(image);
  return parsed ? `${prefix}/${parsed.app}:${parsed.tag}` : image;
}

/** Findings that keep the collection on one version: image tags and the minimum Argo version. */
export function lintVersioning(
  plugin: ExecutorPlugin,
  file: string,
  ctx: CollectionContext,
  app: string | undefined,
): LintFinding[] {
  const out: LintFinding[] = [];
  // A plugin from outside the collection declares the Argo versions it supports itself.
  if (!app) return out;
  const declared = plugin.metadata.annotations?.[VERSION_ANNOTATION];
  if (declared !== undefined && declared !== ctx.argoVersion)
    out.push({
      file,
      field: `metadata.annotations.${VERSION_ANNOTATION}`,
      problem: `'${declared}' differs from the collection's '${ctx.argoVersion}' (run npm run plugin:build)`,
    });
  const image = plugin.spec.sidecar.container.image ?? '';
  const parsed = parseCollectionImage(image);
  const field = 'spec.sidecar.container.image';
  if (!parsed || parsed.app !== app)
    out.push({
      file,
      field,
      problem: `${image || '(none)'} is not this app's image: use ${DEFAULT_IMAGE_PREFIX}/${app}:${ctx.version}`,
    });
  else if (parsed.tag !== ctx.version)
    out.push({
      file,
      field,
      problem: `tag ${parsed.tag} differs from package.json's version ${ctx.version} (run npm run plugin:build)`,
    });
  return out;
}

function rewriteScalar(text: string, node: unknown, value: string): string {
  if (!(node instanceof Scalar) || !node.range || node.value === value) return text;
  const [start, end] = node.range;
  const rendered =
    node.type === Scalar.QUOTE_DOUBLE
      ? JSON.stringify(value)
      : node.type === Scalar.PLAIN && /^[\w./:@-]+$/.test(value) && !/^[-:]/.test(value)
        ? value
        : `'${value.replace(/'/g, "''")}'`;
  return text.slice(0, start) + rendered + text.slice(end);
}

/**
 * plugin.yaml of one of the collection's apps with the collection's version stamped in: the image tag (for
 * this app's collection image) and the minimum Argo version annotation (when present). Only those two
 * scalars change; comments, layout and every other byte stay as written. A plugin that is not an app of the
 * collection (`app` undefined) is returned as it is: like `argo executor-plugin build`, the build keeps what
 * it declares.
 */
export function stampPluginYaml(text: string, ctx: CollectionContext, app: string | undefined): string {
  if (!app) return text;
  const annotation = parseDocument(text).getIn(['metadata', 'annotations', VERSION_ANNOTATION], true);
  let out = rewriteScalar(text, annotation, ctx.argoVersion);
  const node = parseDocument(out).getIn(['spec', 'sidecar', 'container', 'image'], true);
  const parsed = node instanceof Scalar ? parseCollectionImage(String(node.value)) : undefined;
  if (parsed && parsed.app === app) out = rewriteScalar(out, node, `${parsed.prefix}/${app}:${ctx.version}`);
  return out;
}
