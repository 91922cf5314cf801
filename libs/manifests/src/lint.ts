import { Container as ContainerModel } from 'kubernetes-models/v1/Container';
import type { ExecutorPlugin } from './executor-plugin.js';

export interface LintFinding {
  file: string;
  field: string;
  problem: string;
}

export function formatFinding(f: LintFinding): string {
  return `${f.file}: ${f.field}: ${f.problem}`;
}

/** Ports Argo's docs say to avoid (other software commonly binds them). */
export const RESERVED_PORTS = [80, 443, 8080, 8081, 8443];
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL|PRIVATE)/i;
const C = 'spec.sidecar.container';

interface AjvError {
  instancePath?: string;
  message?: string;
}

/**
 * Stricter than `argo executor-plugin build`: the container must be a valid Kubernetes Container, run on a
 * private port, declare cpu and memory requests and limits, meet the "restricted" pod-security rules, take
 * every secret-looking variable from a Secret, and pin its image.
 */
export function lintExecutorPlugin(plugin: ExecutorPlugin, file: string): LintFinding[] {
  const out: LintFinding[] = [];
  const add = (field: string, problem: string) => out.push({ file, field, problem });
  const c = plugin.spec.sidecar.container;

  try {
    new ContainerModel(c as never).validate();
  } catch (err) {
    for (const e of ((err as { errors?: AjvError[] }).errors ?? [{ message: (err as Error).message }]).slice(
      0,
      5,
    )) {
      add(`${C}${(e.instancePath ?? '').replace(/\//g, '.')}`, e.message ?? 'invalid');
    }
  }
  if (!plugin.metadata.name) add('metadata.name', 'must be set (it names the ConfigMap and the plugin)');
  if (!c.name) add(`${C}.name`, 'must be set');
  for (const annotation of ['workflows.argoproj.io/description', 'workflows.argoproj.io/version']) {
    if (!plugin.metadata.annotations?.[annotation])
      add(`metadata.annotations.${annotation}`, 'must be set (the generated README shows it)');
  }

  const port = c.ports?.[0]?.containerPort;
  if (port === undefined) add(`${C}.ports[0].containerPort`, 'must be set');
  else if (port <= 10000)
    add(`${C}.ports[0].containerPort`, `${port} is not a private port: use one above 10000`);
  else if (RESERVED_PORTS.includes(port))
    add(`${C}.ports[0].containerPort`, `${port} is a commonly used port`);

  for (const section of ['requests', 'limits'] as const) {
    for (const resource of ['cpu', 'memory']) {
      if (c.resources?.[section]?.[resource] === undefined)
        add(`${C}.resources.${section}.${resource}`, 'must be set');
    }
  }

  const sc = (c.securityContext ?? {}) as Record<string, unknown>;
  const capabilities = (sc.capabilities ?? {}) as { drop?: string[] };
  const seccomp = (sc.seccompProfile ?? {}) as { type?: string };
  if (sc.runAsNonRoot !== true) add(`${C}.securityContext.runAsNonRoot`, 'must be true');
  if (typeof sc.runAsUser !== 'number' || sc.runAsUser === 0)
    add(`${C}.securityContext.runAsUser`, 'must be a non-zero user id');
  if (sc.readOnlyRootFilesystem !== true) add(`${C}.securityContext.readOnlyRootFilesystem`, 'must be true');
  if (sc.allowPrivilegeEscalation !== false)
    add(`${C}.securityContext.allowPrivilegeEscalation`, 'must be false');
  if (!capabilities.drop?.includes('ALL')) add(`${C}.securityContext.capabilities.drop`, 'must include ALL');
  if (sc.privileged === true) add(`${C}.securityContext.privileged`, 'must not be true');
  if (seccomp.type !== 'RuntimeDefault' && seccomp.type !== 'Localhost')
    add(`${C}.securityContext.seccompProfile.type`, 'must be RuntimeDefault (or Localhost)');

  (c.env ?? []).forEach((e, i) => {
    if (SECRET_NAME.test(e.name) && !e.valueFrom?.secretKeyRef) {
      add(`${C}.env[${i}]`, `${e.name} looks secret: take it from a Secret with valueFrom.secretKeyRef`);
    }
  });

  const image = c.image ?? '';
  const tag = /@sha256:[0-9a-f]{64}$/.test(image)
    ? 'digest'
    : /:([\w.-]+)$/.exec(image.split('/').pop() ?? '')?.[1];
  if (!image) add(`${C}.image`, 'must be set');
  else if (!tag || tag === 'latest') add(`${C}.image`, `${image} must be pinned by a tag or digest`);
  return out;
}

/** Collection-wide rules: every plugin on its own port. */
export function lintCollection(plugins: Array<{ plugin: ExecutorPlugin; file: string }>): LintFinding[] {
  const seen = new Map<number, string>();
  const out: LintFinding[] = [];
  for (const { plugin, file } of plugins) {
    const port = plugin.spec.sidecar.container.ports?.[0]?.containerPort;
    if (port === undefined) continue;
    const other = seen.get(port);
    if (other)
      out.push({ file, field: `${C}.ports[0].containerPort`, problem: `${port} is also used by ${other}` });
    else seen.set(port, file);
  }
  return out;
}

/**
 * The template keys a plugin answers (`notify,slack`), listed in this annotation because Argo ties no key to a
 * plugin: every plugin of this repository carries it. A plugin without it is taken to answer the key of its
 * name (as Argo's example plugins do).
 */
export const KEYS_ANNOTATION = 'executor-plugins.dev/keys';
/** The plugins a plugin hosts (the collection sidecar: `chat-notifier,build-trigger,...`), each installable alone too. */
export const HOSTS_ANNOTATION = 'executor-plugins.dev/hosts';

function listAnnotation(plugin: ExecutorPlugin, annotation: string): string[] | undefined {
  return plugin.metadata.annotations?.[annotation]
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}

export function pluginKeys(plugin: ExecutorPlugin): string[] {
  return listAnnotation(plugin, KEYS_ANNOTATION) ?? [String(plugin.metadata.name)];
}

/** The plugins a plugin hosts (HOSTS_ANNOTATION); none for a single plugin. */
export function hostedPluginNames(plugin: ExecutorPlugin): string[] {
  return listAnnotation(plugin, HOSTS_ANNOTATION) ?? [];
}

/**
 * Warnings for plugins installed in one namespace that answer the same key (the collection beside a single
 * plugin): the agent gives each such template to whichever of them it offers it to first, so which settings
 * and credentials serve it is left to chance. Not an error: it works, only not predictably.
 */
export function lintSharedKeys(plugins: Array<{ plugin: ExecutorPlugin; file: string }>): LintFinding[] {
  const owner = new Map<string, string>();
  const out: LintFinding[] = [];
  for (const { plugin, file } of plugins)
    for (const key of pluginKeys(plugin)) {
      const other: string | undefined = owner.get(key);
      if (other)
        out.push({
          file,
          field: 'metadata',
          problem: `warning: key ${key} is also answered by ${other} in the same namespace; the agent gives its templates to whichever it asks first (drop ${key} from the collection's PLUGINS, or install one of them)`,
        });
      else owner.set(key, file);
    }
  return out;
}
