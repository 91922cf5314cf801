// The install paths, checked on the repository's own manifests: what `npm run plugin:build` generates is what
// is committed, every example and generated workflow is valid for Argo, the ConfigMaps read back the way the
// controller reads them, and the kustomizations build to exactly the objects docs/install.md promises.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import {
  AGENT_RBAC,
  ARGO_MIN_VERSION,
  collectionContext,
  configMapFile,
  containerJson,
  fromConfigMap,
  imagePrefixFor,
  KUSTOMIZATION,
  planCollection,
  readChangelog,
  currentReferencedObjects,
  releaseAssets,
  SECRET_EXAMPLE,
  toConfigMap,
  validateExecutorPlugin,
  WORKFLOW_LEVEL_EXAMPLE,
  hostsPlugins,
  type ConfigMap,
  type ExecutorPlugin,
} from '@app/manifests';
import { argoSchemaValidator, schemaProblems } from '@app/local-agent';

const root = join(import.meta.dirname, '..');
const manifests = join(root, 'manifests');
const ctx = collectionContext(root);
const plan = planCollection(ctx);
const docs = (text: string) =>
  parseAllDocuments(text)
    .map((d) => d.toJSON() as Record<string, unknown> | null)
    .filter((d): d is Record<string, unknown> => d !== null);
const kinds = (objects: Array<Record<string, unknown>>) =>
  objects
    .map((o) => `${String(o.kind)}/${String((o.metadata as { name?: string } | undefined)?.name)}`)
    .sort();

/** What the controller does with `spec.executorPlugins` (WorkflowSpec.AsExecutorPluginSpec). */
function asExecutorPluginSpec(entry: {
  metadata?: { name?: string };
  spec?: { sidecar?: { automountServiceAccountToken?: boolean; container?: object } };
}): ExecutorPlugin {
  if (!entry.metadata?.name) throw new Error('executor plugin metadata name is mandatory');
  const plugin: ExecutorPlugin = {
    metadata: { name: entry.metadata.name },
    spec: {
      sidecar: {
        automountServiceAccountToken: entry.spec?.sidecar?.automountServiceAccountToken === true,
        container: (entry.spec?.sidecar?.container ?? {}) as ExecutorPlugin['spec']['sidecar']['container'],
      },
    },
  };
  validateExecutorPlugin(plugin);
  return plugin;
}

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
function kustomize(dir: string): Array<Record<string, unknown>> {
  const r = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kubectl kustomize ${dir}: ${r.stderr}`);
  return docs(r.stdout);
}

describe('the collection', () => {
  it('has plugins, and manifests:check finds nothing (generated files current, versions stamped, lint clean)', () => {
    expect(plan.packages.length).toBeGreaterThan(0);
    const stale = [...plan.packages.flatMap((p) => p.files), ...plan.files]
      .filter((f) => !existsSync(f.path) || readFileSync(f.path, 'utf8') !== f.content)
      .map((f) => `${relative(root, f.path)}: stale or missing`);
    expect([...plan.problems, ...stale, ...plan.packages.flatMap((p) => p.obsolete)]).toEqual([]);
  });

  it(`declares one version: every image tagged ${ctx.version} (package.json), every plugin needing Argo ${ARGO_MIN_VERSION}`, () => {
    for (const p of plan.packages) {
      expect(p.plugin.metadata.annotations?.['workflows.argoproj.io/version']).toBe(ARGO_MIN_VERSION);
      if (existsSync(join(root, 'apps', p.app)))
        expect(p.plugin.spec.sidecar.container.image).toBe(
          `ghcr.io/executor-plugins/executor-plugins/${p.app}:${ctx.version}`,
        );
    }
    expect(readChangelog(root)).toContain(`## [${ctx.version}] - `);
  });
});

for (const pkg of plan.packages) {
  const rel = relative(root, pkg.dir);
  const configMapPath = pkg.files[0].path;

  describe(`${rel}: install paths`, () => {
    it('ConfigMap → plugin → ConfigMap gives the same bytes, and the plugin is the one plugin.yaml declares', () => {
      const text = readFileSync(configMapPath, 'utf8');
      const cm = parse(text) as ConfigMap;
      const plugin = fromConfigMap(cm);
      expect(configMapFile(toConfigMap(plugin))).toBe(text);
      expect(plugin.metadata.name).toBe(pkg.plugin.metadata.name);
      expect(plugin.kind).toBe('ExecutorPlugin');
      expect(plugin.spec.sidecar.automountServiceAccountToken).toBe(
        pkg.plugin.spec.sidecar.automountServiceAccountToken === true,
      );
      expect(plugin.spec.sidecar.container).toEqual(containerJson(pkg.plugin.spec.sidecar.container));
    });

    it('namespace install: the kustomization is the ConfigMap plus the agent RBAC, and never a Secret', () => {
      const k = parse(readFileSync(join(pkg.dir, KUSTOMIZATION), 'utf8')) as { resources: string[] };
      expect(k.resources).toEqual([basename(configMapPath), AGENT_RBAC]);
      const name = pkg.plugin.metadata.name!;
      const expected = [
        `ConfigMap/${name}-executor-plugin`,
        `Role/${name}-executor-plugin-agent`,
        `RoleBinding/${name}-executor-plugin-agent`,
        ...(pkg.plugin.spec.sidecar.automountServiceAccountToken
          ? [`Secret/${name}-executor-plugin.service-account-token`, `ServiceAccount/${name}-executor-plugin`]
          : []),
      ].sort();
      const local = k.resources.flatMap((r) => docs(readFileSync(join(pkg.dir, r), 'utf8')));
      expect(kinds(local)).toEqual(expected);
      if (kubectl) expect(kinds(kustomize(pkg.dir))).toEqual(expected);
      const role = local.find((o) => o.kind === 'Role')!;
      expect(role.rules).toEqual([
        { apiGroups: ['argoproj.io'], resources: ['workflowtasksets'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['argoproj.io'], resources: ['workflowtasksets/status'], verbs: ['patch'] },
      ]);
      for (const o of local) expect(o.metadata).not.toHaveProperty('namespace');
    });

    it('the Secret example covers every secretKeyRef (but those of 0.1.0 objects) with placeholders only', () => {
      const refs = currentReferencedObjects(pkg.plugin.spec.sidecar.container).filter(
        (o) => o.kind === 'Secret',
      );
      const path = join(pkg.dir, SECRET_EXAMPLE);
      if (refs.length === 0) return expect(existsSync(path)).toBe(false);
      const text = readFileSync(path, 'utf8');
      const secrets = docs(text);
      expect(secrets.map((s) => s.metadata)).toEqual(refs.map((r) => ({ name: r.name })));
      refs.forEach((ref, i) => {
        const data = (secrets[i].stringData ?? {}) as Record<string, string>;
        for (const key of ref.keys) {
          if (key.optional) expect(text).toContain(`# ${key.key}: REPLACE_WITH_`);
          else expect(data[key.key]).toMatch(/^REPLACE_WITH_[A-Z0-9_]+$/);
        }
        expect(Object.keys(data).sort()).toEqual(
          ref.keys
            .filter((k) => !k.optional)
            .map((k) => k.key)
            .sort(),
        );
      });
    });

    it('per-workflow form: the generated workflow is valid for Argo and carries the same sidecar', () => {
      const text = readFileSync(join(pkg.dir, WORKFLOW_LEVEL_EXAMPLE), 'utf8');
      const wf = parse(text) as { kind: string; spec: { executorPlugins: object[] } };
      expect(schemaProblems(argoSchemaValidator('Workflow'), wf)).toEqual([]);
      expect(wf.spec.executorPlugins).toHaveLength(1);
      const plugin = asExecutorPluginSpec(wf.spec.executorPlugins[0]);
      const installed = fromConfigMap(parse(readFileSync(configMapPath, 'utf8')) as ConfigMap);
      expect(plugin.metadata.name).toBe(installed.metadata.name);
      expect(plugin.spec.sidecar.container).toEqual(installed.spec.sidecar.container);
      expect(plugin.spec.sidecar.automountServiceAccountToken).toBe(
        installed.spec.sidecar.automountServiceAccountToken,
      );
    });
  });
}

describe('example workflows (every document of manifests/*/examples/*.yaml) are valid for Argo', () => {
  const files = readdirSync(manifests, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(manifests, d.name, 'examples')))
    .flatMap((d) =>
      readdirSync(join(manifests, d.name, 'examples'))
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => join('manifests', d.name, 'examples', f)),
    );

  it('there are examples', () => expect(files.length).toBeGreaterThan(0));

  it.each(files)('%s', (file) => {
    const objects = docs(readFileSync(join(root, file), 'utf8'));
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      const kind = String(object.kind);
      expect(['Workflow', 'WorkflowTemplate', 'ClusterWorkflowTemplate', 'WorkflowEventBinding']).toContain(
        kind,
      );
      expect({ kind, problems: schemaProblems(argoSchemaValidator(kind), object) }).toEqual({
        kind,
        problems: [],
      });
      const templates = ((object.spec as { templates?: Array<{ plugin?: object }> }).templates ?? []).filter(
        (t) => t.plugin !== undefined,
      );
      for (const t of templates) expect(Object.keys(t.plugin!)).toHaveLength(1);
    }
  });
});

describe('installation-namespace install', () => {
  it('manifests/kustomization.yaml installs every single plugin through its own kustomization, not the collection', () => {
    const k = parse(readFileSync(join(manifests, KUSTOMIZATION), 'utf8')) as { resources: string[] };
    const singles = plan.packages.filter((p) => !hostsPlugins(p.plugin));
    expect(plan.packages.filter((p) => hostsPlugins(p.plugin)).map((p) => p.app)).toEqual(['collection']);
    expect(k.resources).toEqual(singles.map((p) => p.app));
    expect(plan.warnings).toEqual([]);
    if (kubectl)
      expect(kinds(kustomize(manifests)).filter((k) => k.startsWith('ConfigMap/'))).toEqual(
        singles.map((p) => `ConfigMap/${p.configMap.metadata.name}`).sort(),
      );
  });

  it('manifests/install/workflow-namespace gives each workflow namespace the agent RBAC', () => {
    const dir = join(manifests, 'install/workflow-namespace');
    const objects = kubectl ? kustomize(dir) : docs(readFileSync(join(dir, AGENT_RBAC), 'utf8'));
    expect(kinds(objects).slice(0, 2)).toEqual([
      'Role/executor-plugins-agent',
      'RoleBinding/executor-plugins-agent',
    ]);
  });

  it(
    kubectl ? 'kubectl kustomize builds every kustomization' : 'kubectl is not installed: kustomize not run',
    () => {
      if (!kubectl) return;
      for (const dir of [
        manifests,
        ...plan.packages.map((p) => p.dir),
        join(manifests, 'install/workflow-namespace'),
      ])
        expect(kustomize(dir).length).toBeGreaterThan(0);
    },
  );
});

describe('release assets', () => {
  const assets = releaseAssets(plan, ctx, imagePrefixFor('Acme'), readChangelog(root));
  const byName = new Map(assets.map((a) => [a.path, a.content]));

  it.each(plan.packages.map((p) => [p.app, p] as const))(
    '%s-install.yaml: one apply, images of the publishing owner',
    (app, pkg) => {
      const objects = docs(byName.get(`${app}-install.yaml`)!);
      const cm = objects.find((o) => o.kind === 'ConfigMap') as unknown as ConfigMap;
      const plugin = fromConfigMap(cm);
      const image = pkg.plugin.spec.sidecar.container.image!;
      expect(plugin.spec.sidecar.container.image).toBe(
        image.startsWith('ghcr.io/executor-plugins/executor-plugins/')
          ? image.replace('ghcr.io/executor-plugins/', 'ghcr.io/acme/')
          : image,
      );
      expect(
        objects.filter((o) => o.kind === 'Secret' && o.type !== 'kubernetes.io/service-account-token'),
      ).toEqual([]);
      expect(kinds(objects)).toEqual(
        kinds(docs(readFileSync(join(pkg.dir, AGENT_RBAC), 'utf8')))
          .concat(`ConfigMap/${cm.metadata.name}`)
          .sort(),
      );
      const wf = parse(byName.get(`${app}-workflow-level-example.yaml`)!) as {
        spec: { executorPlugins: object[] };
      };
      expect(asExecutorPluginSpec(wf.spec.executorPlugins[0]).spec.sidecar.container.image).toBe(
        plugin.spec.sidecar.container.image,
      );
    },
  );

  it('SHA256SUMS lists every other asset', () => {
    const sums = byName.get('SHA256SUMS')!.trim().split('\n');
    expect(sums.map((l) => l.split('  ')[1])).toEqual(
      assets.map((a) => a.path).filter((p) => p !== 'SHA256SUMS'),
    );
  });
});
