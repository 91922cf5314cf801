import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { demoUpstreamsOf, type DemoContext } from '@app/local-agent/demo/demo-upstreams.js';
import { summaryLine } from '../src/report/report.js';
import { renderText } from '../src/report/text.js';
import { runConformance } from '../src/run.js';
import type { SecretValue } from '../src/secrets.js';
import { freePort, repoRoot, tokenDir } from './support/fixtures.js';

/**
 * The kit's first customers: every plugin app of this repo (src/main.ts and manifests/<app>/plugin.yaml, with a
 * successful build) is launched against its demo stand-ins (none for a plugin without demo/upstreams.ts: it
 * calls no upstream) and must pass every rule. An optional
 * apps/<app>/test/conformance.json gives the example body and the side-effect counter (docs/conformance.md).
 */
interface AppConformance {
  key?: string;
  config?: unknown;
  countUrl?: string;
  countUpstreamEnv?: string;
  countAuthorizationEnv?: string;
}

const appsDir = join(repoRoot, 'apps');
/** CONFORMANCE_APPS=a,b: only these apps (npm run test:plugin -- <name> runs one plugin's suites). */
const only = (process.env.CONFORMANCE_APPS ?? '').split(',').filter(Boolean);
const apps = readdirSync(appsDir, { withFileTypes: true })
  // Executor plugins: an app with a manifests/<app>/plugin.yaml (the shared agent is none).
  .filter(
    (d) =>
      d.isDirectory() &&
      (only.length === 0 || only.includes(d.name)) &&
      existsSync(join(appsDir, d.name, 'src/main.ts')) &&
      existsSync(join(repoRoot, 'manifests', d.name, 'plugin.yaml')),
  )
  .map((d) => d.name)
  .sort();
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|KEY|CREDENTIAL/i;

const covered: string[] = [];
const notCovered: string[] = [];
/** Each covered app's score line, as the kit's report ends. */
const scores: string[] = [];

function readJson<T>(path: string): T | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

/** The plugin key: conformance.json, else the manifest's metadata.name, else the plugin definition. */
function pluginKey(app: string, conf: AppConformance | undefined): string | undefined {
  if (conf?.key) return conf.key;
  const manifest = join(repoRoot, 'manifests', app, 'plugin.yaml');
  if (existsSync(manifest)) {
    const name = (parseYaml(readFileSync(manifest, 'utf8')) as { metadata?: { name?: string } })?.metadata
      ?.name;
    if (name) return name;
  }
  for (const file of readdirSync(join(appsDir, app, 'src')).filter((f) => f.endsWith('.plugin.ts'))) {
    const key = /\bkey:\s*'([^']+)'/.exec(readFileSync(join(appsDir, app, 'src', file), 'utf8'))?.[1];
    if (key) return key;
  }
  return undefined;
}

/** dist/apps/<app>/main.js, built now if missing (npm test builds first); undefined if the build fails. */
async function builtEntry(app: string): Promise<{ main?: string; problem?: string }> {
  const main = join(repoRoot, 'dist/apps', app, 'main.js');
  if (existsSync(main)) return { main };
  try {
    await promisify(execFile)(process.execPath, [join(repoRoot, 'tools/build.mjs'), app], { cwd: repoRoot });
  } catch (err) {
    return {
      problem: `build failed: ${((err as { stderr?: string }).stderr ?? String(err)).trim().split('\n')[0]}`,
    };
  }
  return existsSync(main) ? { main } : { problem: 'the build wrote no main.js' };
}

describe('conformance: the plugins of this repo', () => {
  afterAll(() => {
    process.stdout.write(
      scores.map((line) => `${line}\n`).join('') +
        `conformance covered: ${covered.join(', ') || 'no app yet'}` +
        (notCovered.length ? `; not covered: ${notCovered.join('; ')}` : '') +
        '\n',
    );
  });

  it('finds the plugin apps (apps/*/src/main.ts)', () => {
    expect(apps.length).toBeGreaterThan(0);
  });

  it.each(apps)(
    '%s passes every rule',
    async (app) => {
      const conf = readJson<AppConformance>(join(appsDir, app, 'test/conformance.json'));
      const key = pluginKey(app, conf);
      const { main, problem } = await builtEntry(app);
      if (!main || !key) {
        notCovered.push(`${app} (${problem ?? 'no plugin key found'})`);
        throw new Error(`${app} is not checked: ${problem ?? 'no plugin key found'}`);
      }
      const startDemoUpstreams = await demoUpstreamsOf(join(appsDir, app));
      const tokens = tokenDir();
      const context: DemoContext = { plugins: [], timeScale: 0.05 };
      const upstreams = await startDemoUpstreams(context);
      try {
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        context.plugins.push({ name: key, url, token: tokens.token });
        const countBase = conf?.countUpstreamEnv ? upstreams.env[conf.countUpstreamEnv] : undefined;
        if (conf?.countUrl && !countBase)
          throw new Error(`${app}: countUpstreamEnv ${conf.countUpstreamEnv} is not in the demo env`);
        const secrets: SecretValue[] = Object.entries(upstreams.env)
          .filter(([name, value]) => SECRET_NAME.test(name) && value)
          .map(([name, value]) => ({ name, value }));
        const report = await runConformance({
          url,
          token: tokens.token,
          key,
          config: conf?.config,
          // An upstream address may come as host:port (ARGO_SERVER does).
          countUrl: conf?.countUrl
            ? new URL(
                conf.countUrl,
                /^[a-z][a-z0-9+.-]*:\/\//i.test(countBase!) ? countBase : `http://${countBase}`,
              ).href
            : undefined,
          countAuthorization: conf?.countAuthorizationEnv
            ? upstreams.env[conf.countAuthorizationEnv]
            : undefined,
          secrets,
          start: {
            command: `node ${main}`,
            env: {
              ...upstreams.env,
              TOKEN_FILE: tokens.tokenFile,
              PORT: String(port),
              HOST: '127.0.0.1',
              LOG_LEVEL: 'warn',
            },
          },
          timeScale: 0.05,
          gracePeriodMs: 10_000,
          pollTimeoutMs: 30_000,
        });
        const failed = report.results.filter((r) => r.status === 'fail');
        if (failed.length > 0)
          throw new Error(`${app} does not conform:\n${renderText(report, { exitCode: 1 })}`);
        covered.push(`${app}${conf ? '' : ' (no test/conformance.json: rules without a config)'}`);
        scores.push(`conformance ${app}: ${summaryLine(report)}`);
      } finally {
        await upstreams.close();
        tokens.remove();
      }
    },
    90_000,
  );
});
