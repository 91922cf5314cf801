import { parse, parseAllDocuments } from 'yaml';
import { AGENT_RULES, pluginAgentRbacFile, workflowNamespaceRbacFile } from './agent-rbac.js';
import { referencedObjects } from './env-references.js';
import { exampleObjectsFile, PLACEHOLDER_PREFIX } from './example-objects.js';
import type { Container, ExecutorPlugin } from './executor-plugin.js';
import { workflowLevelExampleFile, workflowLevelPlugin } from './workflow-level.js';

const container: Container = {
  name: 'thing-executor-plugin',
  image: 'ghcr.io/o/executor-plugins/my-thing:0.1.0',
  ports: [{ containerPort: 10500 }],
  env: [
    { name: 'THING_TOKEN', valueFrom: { secretKeyRef: { name: 'my-thing', key: 'token' } } },
    {
      name: 'THING_OPS_TOKEN',
      valueFrom: { secretKeyRef: { name: 'my-thing', key: 'ops-token', optional: true } },
    },
    { name: 'THING_URL', valueFrom: { configMapKeyRef: { name: 'my-thing', key: 'url' } } as never },
    { name: 'THING_LEVEL', value: 'info' },
    { name: 'OTHER_PASSWORD', valueFrom: { secretKeyRef: { name: 'shared-db', key: 'password' } } },
  ],
  envFrom: [{ secretRef: { name: 'extra', optional: true } }],
  resources: { requests: {}, limits: {} },
  securityContext: {},
};
const plugin = (automount = false): ExecutorPlugin => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'ExecutorPlugin',
  metadata: { name: 'thing' },
  spec: { sidecar: { automountServiceAccountToken: automount, container } },
});

const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJSON() as Record<string, unknown>);

describe('referencedObjects', () => {
  it('lists every Secret and ConfigMap the sidecar reads, with keys, variables and optionality', () => {
    expect(referencedObjects(container)).toEqual([
      {
        kind: 'Secret',
        name: 'my-thing',
        keys: [
          { key: 'token', env: 'THING_TOKEN', optional: false },
          { key: 'ops-token', env: 'THING_OPS_TOKEN', optional: true },
        ],
        wholeObject: false,
        optional: false,
      },
      {
        kind: 'ConfigMap',
        name: 'my-thing',
        keys: [{ key: 'url', env: 'THING_URL', optional: false }],
        wholeObject: false,
        optional: false,
      },
      {
        kind: 'Secret',
        name: 'shared-db',
        keys: [{ key: 'password', env: 'OTHER_PASSWORD', optional: false }],
        wholeObject: false,
        optional: false,
      },
      { kind: 'Secret', name: 'extra', keys: [], wholeObject: true, optional: true },
    ]);
  });
});

describe('secret.example.yaml / settings.example.yaml', () => {
  const secrets = exampleObjectsFile(plugin(), 'Secret', 'manifests/my-thing/plugin.yaml')!;

  it('has one Secret per referenced name, required keys as placeholders and optional ones commented out', () => {
    expect(docs(secrets)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'my-thing' },
        type: 'Opaque',
        stringData: { token: 'REPLACE_WITH_THING_TOKEN' },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'shared-db' },
        type: 'Opaque',
        stringData: { password: 'REPLACE_WITH_OTHER_PASSWORD' },
      },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'extra' }, type: 'Opaque', stringData: {} },
    ]);
    expect(secrets).toContain('  # ops-token: REPLACE_WITH_THING_OPS_TOKEN');
    expect(secrets).toContain(
      '#   kubectl -n <namespace> create secret generic my-thing --from-literal=token=...',
    );
  });

  it('never holds anything but placeholders', () => {
    for (const doc of docs(secrets))
      for (const value of Object.values((doc.stringData ?? {}) as Record<string, string>))
        expect(value.startsWith(PLACEHOLDER_PREFIX)).toBe(true);
  });

  it('writes settings ConfigMaps from configMapKeyRefs, and nothing when there are none', () => {
    expect(docs(exampleObjectsFile(plugin(), 'ConfigMap', 'p.yaml')!)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'my-thing' },
        data: { url: 'REPLACE_WITH_THING_URL' },
      },
    ]);
    const bare: ExecutorPlugin = {
      ...plugin(),
      spec: { sidecar: { container: { ...container, env: [], envFrom: [] } } },
    };
    expect(exampleObjectsFile(bare, 'Secret', 'p.yaml')).toBeUndefined();
  });

  it('reads an all-optional Secret as one without data', () => {
    const optional: ExecutorPlugin = {
      ...plugin(),
      spec: { sidecar: { container: { ...container, env: [container.env![1]], envFrom: [] } } },
    };
    expect(docs(exampleObjectsFile(optional, 'Secret', 'p.yaml')!)[0].stringData).toBeNull();
  });
});

describe('agent-rbac.yaml', () => {
  it("grants the agent exactly what it uses, bound to the namespace's default account", () => {
    const [role, binding, ...rest] = docs(pluginAgentRbacFile(plugin(), 'my-thing'));
    expect(role).toMatchObject({
      kind: 'Role',
      metadata: { name: 'thing-executor-plugin-agent' },
      rules: AGENT_RULES,
    });
    expect(AGENT_RULES).toEqual([
      { apiGroups: ['argoproj.io'], resources: ['workflowtasksets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['argoproj.io'], resources: ['workflowtasksets/status'], verbs: ['patch'] },
    ]);
    expect(binding).toMatchObject({
      kind: 'RoleBinding',
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'thing-executor-plugin-agent' },
      subjects: [{ kind: 'ServiceAccount', name: 'default' }],
    });
    expect(rest).toEqual([]);
    for (const doc of [role, binding]) expect((doc.metadata as object) ?? {}).not.toHaveProperty('namespace');
  });

  it('adds the plugin service account and its token Secret when the sidecar asks for a token', () => {
    const [, , sa, token] = docs(pluginAgentRbacFile(plugin(true), 'my-thing'));
    expect(sa).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'thing-executor-plugin' } });
    expect(token).toMatchObject({
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: {
        name: 'thing-executor-plugin.service-account-token',
        annotations: { 'kubernetes.io/service-account.name': 'thing-executor-plugin' },
      },
    });
    const shared = docs(workflowNamespaceRbacFile([plugin(false), plugin(true)]));
    expect(shared.map((d) => `${String(d.kind)}/${String((d.metadata as { name: string }).name)}`)).toEqual([
      'Role/executor-plugins-agent',
      'RoleBinding/executor-plugins-agent',
      'ServiceAccount/thing-executor-plugin',
      'Secret/thing-executor-plugin.service-account-token',
    ]);
  });
});

describe('workflow-level-example.yaml', () => {
  const example = (name: string) => `apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: ${name}-
spec:
  executorPlugins: [{ metadata: { name: stale } }]
  entrypoint: ${name}
  templates:
    - name: ${name}
      plugin: { thing: { say: ${name} } }
`;

  it('puts the plugin into the first example workflow (by file name), replacing any executorPlugins', () => {
    const binding = 'apiVersion: argoproj.io/v1alpha1\nkind: WorkflowEventBinding\nmetadata: { name: b }\n';
    const text = workflowLevelExampleFile(plugin(), 'my-thing', [
      { name: 'b.yaml', text: example('second') },
      { name: 'a.yaml', text: `${binding}---\n${example('first')}` },
    ]);
    const wf = parse(text) as { metadata: object; spec: { entrypoint: string; executorPlugins: unknown[] } };
    expect(wf.metadata).toEqual({ generateName: 'my-thing-workflow-level-' });
    expect(wf.spec.entrypoint).toBe('first');
    expect(wf.spec.executorPlugins).toEqual([workflowLevelPlugin(plugin())]);
    expect(text).toContain('ARGO_WORKFLOW_LEVEL_EXECUTOR_PLUGINS=true');
  });

  it('falls back to a one-step workflow without examples', () => {
    const wf = parse(workflowLevelExampleFile(plugin(), 'my-thing', [])) as {
      spec: { templates: unknown[] };
    };
    expect(wf.spec.templates).toEqual([{ name: 'main', plugin: { thing: {} } }]);
  });

  const hosting = (description: string): ExecutorPlugin => ({
    ...plugin(),
    metadata: {
      name: 'bundle',
      annotations: {
        'executor-plugins.dev/keys': 'thing,other',
        'workflows.argoproj.io/description': description,
      },
    },
  });

  it("without examples, runs the template of the description's example", () => {
    const description =
      'Does things.\n\nExample:\n\n```yaml\n- name: say\n  plugin:\n    thing: { say: hi }\n```\n';
    const wf = parse(workflowLevelExampleFile(hosting(description), 'bundle', [])) as {
      spec: { entrypoint: string; templates: unknown[] };
    };
    expect(wf.spec.entrypoint).toBe('say');
    expect(wf.spec.templates).toEqual([{ name: 'say', plugin: { thing: { say: 'hi' } } }]);
  });

  it('a plugin hosting others calls a key it answers, not its own name (the real agent finds no plugin for it)', () => {
    const wf = parse(workflowLevelExampleFile(hosting('Does things.'), 'bundle', [])) as {
      spec: { templates: unknown[] };
    };
    expect(wf.spec.templates).toEqual([{ name: 'main', plugin: { thing: {} } }]);
  });
});
