import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { parse } from 'yaml';
import { demoUpstreamsOf, executeArgs, startPluginProcess } from '@app/local-agent';
import { startDemoUpstreams as startCollectionUpstreams } from '../apps/collection/demo/upstreams.js';
import { FakeApi } from '../apps/shared-agent/test/support/fake-api.js';

const root = join(import.meta.dirname, '..');
const dockerfile = readFileSync(join(root, 'docker/Dockerfile'), 'utf8');
const stages = dockerfile.split(/^FROM /m).slice(1);
const TOKEN = 'bcdfghjklmnpqrstvwxz2456789bcdfg';

describe('docker/Dockerfile (no engine here: checked statically, and its build steps are run)', () => {
  const runtime = stages.at(-1) ?? '';

  it('is multi-stage, on a Node LTS base, for the app given by the APP build argument', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(22|24)[\w.-]*$/m);
    expect(dockerfile).toMatch(/RUN test -n "\$APP" .* node tools\/build\.mjs "\$APP"/);
    expect(dockerfile).toContain('npm ci');
  });

  it('ships only the bundle of one app, as a numeric non-root user, read-only-root friendly', () => {
    const copies = runtime.split('\n').filter((l) => l.startsWith('COPY'));
    expect(copies).toEqual(['COPY --from=build --chown=0:0 /src/dist/apps/${APP}/ /app/']);
    expect(runtime).not.toMatch(/npm (ci|install)|node_modules/);
    const user = /^USER (\d+):(\d+)$/m.exec(runtime);
    expect(Number(user?.[1])).toBeGreaterThan(0);
    expect(runtime).toContain('ENTRYPOINT ["node", "/app/main.js"]');
    expect(runtime).not.toMatch(/^VOLUME/m);
  });

  it('builds the bundle once on the build platform, so a multi-architecture build needs no emulation', () => {
    expect(stages[0]).toMatch(/^--platform=\$BUILDPLATFORM \$\{NODE_IMAGE\} AS build$/m);
    expect(runtime).toMatch(/^\$\{NODE_IMAGE\} AS runtime$/m);
    expect(runtime).not.toMatch(/^RUN /m);
  });

  it('labels the image with the version, revision and source the release passes in', () => {
    for (const arg of ['APP', 'VERSION', 'REVISION', 'SOURCE'])
      expect(runtime).toMatch(new RegExp(`^ARG ${arg}(=|$)`, 'm'));
    for (const label of ['version="${VERSION}"', 'revision="${REVISION}"', 'source="${SOURCE}"'])
      expect(runtime).toContain(`org.opencontainers.image.${label}`);
  });

  it("every manifest starts the image's entry point", () => {
    for (const app of readdirSync(join(root, 'manifests')).filter((d) =>
      existsSync(join(root, 'manifests', d, 'plugin.yaml')),
    )) {
      const plugin = parse(readFileSync(join(root, 'manifests', app, 'plugin.yaml'), 'utf8')) as {
        spec: { sidecar: { container: { command?: string[]; image: string } } };
      };
      const { command, image } = plugin.spec.sidecar.container;
      expect(command?.[0]).toBe('node');
      expect(command?.at(-1)).toBe('/app/main.js');
      expect(image).toMatch(new RegExp(`/${app}:`));
    }
  });
});

// The executor plugins (an app with manifests/<app>/plugin.yaml); the shared agent has its own test below.
const apps = readdirSync(join(root, 'apps')).filter(
  (app) =>
    existsSync(join(root, 'apps', app, 'src/main.ts')) &&
    existsSync(join(root, 'manifests', app, 'plugin.yaml')),
);

for (const app of apps) {
  describe(`the ${app} bundle, as the image ships it`, () => {
    it('has a built bundle (npm test builds first)', () => {
      expect(existsSync(join(root, 'dist/apps', app, 'main.js'))).toBe(true);
    });

    it('loads its start path as one module, without the class-validator executor or validators', () => {
      const main = readFileSync(join(root, 'dist/apps', app, 'main.js'), 'utf8');
      expect(main).not.toMatch(/(from|import)\s*["']\.\/chunks\//);
      // Env classes are checked by the kit's env rules; class-validator checks plugin bodies, in the chunks.
      expect(main).toContain('must be a Go duration such as 30s or 1m30s');
      expect(main).not.toContain('ValidationExecutor');
      expect(main).not.toContain('require_isEmail');
    });

    it('starts without node_modules, answers authenticated calls and stops cleanly on SIGTERM', async () => {
      const dir = mkdtempSync(join(tmpdir(), `image-${app}-`));
      cpSync(join(root, 'dist/apps', app), join(dir, 'app'), { recursive: true });
      writeFileSync(join(dir, 'token'), TOKEN);
      const startDemoUpstreams = await demoUpstreamsOf(join(root, 'apps', app));
      const upstreams = await startDemoUpstreams({ plugins: [], timeScale: 1 });
      const proc = await startPluginProcess(
        app,
        join(dir, 'app/main.js'),
        { ...upstreams.env, TOKEN_FILE: join(dir, 'token') },
        { cwd: dir },
      );
      try {
        const foreign = await fetch(`${proc.url}/api/v1/template.execute`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify(executeArgs({ 'some-other-plugin': {} })),
        });
        expect(foreign.status).toBe(200);
        expect(await foreign.text()).toBe('{}');
        expect(
          (await fetch(`${proc.url}/api/v1/template.execute`, { method: 'POST', body: '{}' })).status,
        ).toBe(403);
        expect(await proc.stop()).toBe(0);
      } finally {
        proc.child.kill('SIGKILL');
        await upstreams.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

describe('the shared-agent bundle, as the image ships it', () => {
  it('starts without node_modules, works a TaskSet with the collection in process, is healthy and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'image-shared-agent-'));
    cpSync(join(root, 'dist/apps/shared-agent'), join(dir, 'app'), { recursive: true });
    const api = await FakeApi.start();
    writeFileSync(join(dir, 'kubeconfig'), api.kubeconfig());
    const upstreams = await startCollectionUpstreams({ plugins: [], timeScale: 1 });
    const conformance = JSON.parse(
      readFileSync(join(root, 'apps/collection/test/conformance.json'), 'utf8'),
    ) as {
      key: string;
      config: unknown;
    };
    const child = spawn(process.execPath, [join(dir, 'app/main.js')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        ...upstreams.env,
        KUBECONFIG: join(dir, 'kubeconfig'),
        AGENT_PORT: '0',
        AGENT_HOST: '127.0.0.1',
        ARGO_AGENT_PATCH_RATE: '200ms',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const started = await new Promise<{ port: number }>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          const entry = JSON.parse(line) as { msg?: string; port?: number };
          if (entry.msg === 'shared agent started') resolve({ port: entry.port! });
        });
        void exited.then((code) => reject(new Error(`the agent exited (${code})`)));
      });
      const base = `http://127.0.0.1:${started.port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      api.createTaskSet('ns', 'wf', {
        'wf-1': {
          name: 's',
          inputs: {},
          outputs: {},
          metadata: {},
          plugin: { [conformance.key]: conformance.config },
        },
      });
      for (let i = 0; i < 200 && !api.nodes('ns', 'wf')['wf-1']; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(api.nodes('ns', 'wf')['wf-1']?.phase).toBe('Succeeded');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await upstreams.close();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
