import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { CollectionDefinition, PluginDefinition } from '@app/plugin-kit';
import { demoUpstreamsOf, type DemoContext, type DemoUpstreams } from '@app/local-agent';
import { memoryQuantityMiB } from '@app/local-agent/demo/container-memory.js';

export const repoRoot = join(import.meta.dirname, '../../..');

/** One plugin the suites run: a complete app of this repo, or the kit's probe plugin. */
export interface PluginTarget {
  name: string;
  key: string;
  /** A representative body (apps/<app>/test/conformance.json). */
  config: Record<string, unknown>;
  /** The built bundle (dist/apps/<app>/main.js). */
  entry: string;
  /** Counter of the side effect, resolved against the demo env variable `countUpstreamEnv`. */
  countUrl?: string;
  countUpstreamEnv?: string;
  /** The demo env variable whose value is the counter's Authorization header (a counter behind a token). */
  countAuthorizationEnv?: string;
  /** Extra sidecar env (the probe's secret). */
  env: Record<string, string>;
  /** Node flags of the manifest's command (`node --max-old-space-size=48 /app/main.js`), as the pod runs it. */
  nodeArgs: string[];
  /** The container's memory limit from the manifest, in MiB: the sidecar runs under it (a cgroup of that size, or the heap sizing it gives). */
  memoryLimitMiB?: number;
  startUpstreams(context: DemoContext): Promise<DemoUpstreams>;
  /** The plugin (or collection) definition, for the in-process harness (startAnyHarness). */
  definition(): Promise<PluginDefinition<object> | CollectionDefinition>;
  /** docs/<app>.md, when it exists. */
  doc?: string;
}

interface ConformanceFile {
  key?: string;
  config?: Record<string, unknown>;
  countUrl?: string;
  countUpstreamEnv?: string;
  countAuthorizationEnv?: string;
}

export interface Discovery {
  targets: PluginTarget[];
  /** Apps left out, with what they lack. */
  skipped: string[];
}

/**
 * The complete plugin apps (manifests/<app>/plugin.yaml), by convention: apps/<app>/src/main.ts, test/conformance.json and a
 * built bundle dist/apps/<app>/main.js (`npm test` builds first), with the stand-ins of demo/upstreams.ts (none for a plugin
 * without one: it calls no upstream). Apps lacking a part are listed with the reason.
 */
export function discoverApps(): Discovery {
  const appsDir = join(repoRoot, 'apps');
  const targets: PluginTarget[] = [];
  const skipped: string[] = [];
  for (const app of readdirSync(appsDir).sort()) {
    const dir = join(appsDir, app);
    // Executor plugins only: an app without manifests/<app>/plugin.yaml (the shared agent) is not one.
    if (!statSync(dir).isDirectory() || !existsSync(join(repoRoot, 'manifests', app, 'plugin.yaml')))
      continue;
    const parts = {
      'src/main.ts': join(dir, 'src/main.ts'),
      'test/conformance.json': join(dir, 'test/conformance.json'),
      [`dist/apps/${app}/main.js`]: join(repoRoot, 'dist/apps', app, 'main.js'),
    };
    const missing = Object.entries(parts)
      .filter(([, path]) => !existsSync(path))
      .map(([label]) => label);
    if (missing.length > 0) {
      skipped.push(`${app} (no ${missing.join(', no ')})`);
      continue;
    }
    const conf = JSON.parse(readFileSync(parts['test/conformance.json'], 'utf8')) as ConformanceFile;
    // A plugin app has src/<name>.plugin.ts; the collection, src/collection.definition.ts.
    const definitionFile = readdirSync(join(dir, 'src')).find(
      (f) => f.endsWith('.plugin.ts') || f === 'collection.definition.ts',
    );
    if (!conf.key || !conf.config || !definitionFile) {
      skipped.push(`${app} (conformance.json without key/config, or no src/*.plugin.ts)`);
      continue;
    }
    const doc = join(repoRoot, 'docs', `${app}.md`);
    targets.push({
      name: app,
      key: conf.key,
      config: conf.config,
      entry: parts[`dist/apps/${app}/main.js`],
      countUrl: conf.countUrl,
      countUpstreamEnv: conf.countUpstreamEnv,
      countAuthorizationEnv: conf.countAuthorizationEnv,
      env: {},
      ...manifestRuntime(app),
      doc: existsSync(doc) ? doc : undefined,
      startUpstreams: async (context) => (await demoUpstreamsOf(dir))(context),
      definition: () => findDefinition(join(dir, 'src', definitionFile)),
    });
  }
  return { targets, skipped };
}

/** How the manifest runs the sidecar: node flags and memory limit. */
function manifestRuntime(app: string): { nodeArgs: string[]; memoryLimitMiB?: number } {
  const file = join(repoRoot, 'manifests', app, 'plugin.yaml');
  if (!existsSync(file)) return { nodeArgs: [] };
  const container = (
    parseYaml(readFileSync(file, 'utf8')) as {
      spec?: {
        sidecar?: { container?: { command?: string[]; resources?: { limits?: { memory?: string } } } };
      };
    }
  ).spec?.sidecar?.container;
  const command = container?.command ?? [];
  const nodeArgs = command[0] === 'node' ? command.slice(1, -1) : [];
  return { nodeArgs, memoryLimitMiB: memoryQuantityMiB(container?.resources?.limits?.memory) };
}

async function findDefinition(file: string): Promise<PluginDefinition<object> | CollectionDefinition> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const found = Object.values(mod).find(
    (v): v is PluginDefinition<object> | CollectionDefinition =>
      typeof v === 'object' &&
      v !== null &&
      (('key' in v && typeof (v as PluginDefinition).load === 'function') ||
        Array.isArray((v as CollectionDefinition).plugins)),
  );
  if (!found) throw new Error(`${file} exports no plugin definition`);
  return found;
}

const PROBE_DIR = join(repoRoot, 'libs/plugin-kit/test/fixtures');

/** The kit's probe plugin, bundled like an app into a temporary directory (no stand-in, one secret). */
export async function probeTarget(): Promise<PluginTarget> {
  const out = join(mkdtempSync(join(tmpdir(), 'reliability-probe-')), 'app');
  // @ts-expect-error: the build script is plain JavaScript
  const { bundleEntry } = (await import('../../../tools/build.mjs')) as {
    bundleEntry(entry: string, out: string, name: string): Promise<unknown>;
  };
  await bundleEntry(join(PROBE_DIR, 'probe-main.ts'), out, 'probe');
  const first = discoverApps().targets[0];
  return {
    name: 'probe',
    key: 'probe',
    config: { outcome: 'poll' },
    entry: join(out, 'main.js'),
    env: { PROBE_SECRET: `probe-secret-${Math.random().toString(36).slice(2)}-reliability` },
    // No manifest of its own: it runs as the first app's manifest runs it (flags and memory limit change how V8 collects).
    nodeArgs: first?.nodeArgs ?? [],
    memoryLimitMiB: first?.memoryLimitMiB,
    startUpstreams: async () => ({ env: {}, close: async () => undefined }),
    definition: async () =>
      (await import('../../../libs/plugin-kit/test/fixtures/probe-plugin.js'))
        .probePlugin as PluginDefinition<object>,
  };
}

/** The targets a suite covers, and the line that says so. */
export async function allTargets(options: { probe?: boolean } = {}): Promise<Discovery> {
  const found = discoverApps();
  if (options.probe !== false) found.targets.push(await probeTarget());
  return found;
}

export function coverageLine(suite: string, found: Discovery): string {
  const names = found.targets.map((t) => t.name).join(', ') || 'nothing';
  return `${suite} covered: ${names}${found.skipped.length ? `; not covered: ${found.skipped.join('; ')}` : ''}`;
}
