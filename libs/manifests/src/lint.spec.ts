import { KEYS_ANNOTATION, lintCollection, lintExecutorPlugin, lintSharedKeys } from './lint.js';
import type { ExecutorPlugin } from './executor-plugin.js';

const good = (): ExecutorPlugin => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'ExecutorPlugin',
  metadata: {
    name: 'slack',
    annotations: { 'workflows.argoproj.io/description': 'd', 'workflows.argoproj.io/version': '>= v3.3' },
  },
  spec: {
    sidecar: {
      container: {
        name: 'slack-executor-plugin',
        image: 'ghcr.io/x/chat-notifier:0.1.0',
        ports: [{ containerPort: 10420 }],
        env: [
          { name: 'SLACK_BOT_TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
          { name: 'SLACK_API_URL', value: 'http://x' },
        ],
        resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
        securityContext: {
          runAsNonRoot: true,
          runAsUser: 65532,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        },
      },
    },
  },
});

const C = 'spec.sidecar.container';

describe('manifest lint', () => {
  it('accepts a hardened plugin', () => {
    expect(lintExecutorPlugin(good(), 'plugin.yaml')).toEqual([]);
  });

  it.each<[string, (p: ExecutorPlugin) => void, string, string]>([
    [
      'a public port',
      (p) => (p.spec.sidecar.container.ports = [{ containerPort: 4355 }]),
      `${C}.ports[0].containerPort`,
      '4355 is not a private port: use one above 10000',
    ],
    [
      'a missing memory limit',
      (p) => delete p.spec.sidecar.container.resources!.limits!.memory,
      `${C}.resources.limits.memory`,
      'must be set',
    ],
    [
      'root',
      (p) => (p.spec.sidecar.container.securityContext!.runAsUser = 0),
      `${C}.securityContext.runAsUser`,
      'must be a non-zero user id',
    ],
    [
      'a writable root',
      (p) => delete p.spec.sidecar.container.securityContext!.readOnlyRootFilesystem,
      `${C}.securityContext.readOnlyRootFilesystem`,
      'must be true',
    ],
    [
      'privilege escalation',
      (p) => (p.spec.sidecar.container.securityContext!.allowPrivilegeEscalation = true),
      `${C}.securityContext.allowPrivilegeEscalation`,
      'must be false',
    ],
    [
      'capabilities kept',
      (p) => (p.spec.sidecar.container.securityContext!.capabilities = { drop: ['NET_RAW'] }),
      `${C}.securityContext.capabilities.drop`,
      'must include ALL',
    ],
    [
      'no seccomp profile',
      (p) => delete p.spec.sidecar.container.securityContext!.seccompProfile,
      `${C}.securityContext.seccompProfile.type`,
      'must be RuntimeDefault (or Localhost)',
    ],
    [
      'a literal token',
      (p) => (p.spec.sidecar.container.env = [{ name: 'JENKINS_API_TOKEN', value: 'abc' }]),
      `${C}.env[0]`,
      'JENKINS_API_TOKEN looks secret: take it from a Secret with valueFrom.secretKeyRef',
    ],
    [
      'a latest image',
      (p) => (p.spec.sidecar.container.image = 'ghcr.io/x/y:latest'),
      `${C}.image`,
      'ghcr.io/x/y:latest must be pinned by a tag or digest',
    ],
    [
      'an untagged image',
      (p) => (p.spec.sidecar.container.image = 'localhost:5000/y'),
      `${C}.image`,
      'localhost:5000/y must be pinned by a tag or digest',
    ],
    [
      'an invalid container',
      (p) => (p.spec.sidecar.container.ports = [{ containerPort: 'x' as unknown as number }]),
      `${C}.ports.0.containerPort`,
      'must be integer',
    ],
  ])('reports %s naming the field', (_what, change, field, problem) => {
    const p = good();
    change(p);
    expect(lintExecutorPlugin(p, 'plugin.yaml')).toContainEqual({ file: 'plugin.yaml', field, problem });
  });

  it('accepts an image pinned by digest', () => {
    const p = good();
    p.spec.sidecar.container.image = `ghcr.io/x/y@sha256:${'a'.repeat(64)}`;
    expect(lintExecutorPlugin(p, 'plugin.yaml')).toEqual([]);
  });

  it('requires unique ports across the collection', () => {
    expect(
      lintCollection([
        { plugin: good(), file: 'a/plugin.yaml' },
        { plugin: good(), file: 'b/plugin.yaml' },
      ]),
    ).toEqual([
      {
        file: 'b/plugin.yaml',
        field: `${C}.ports[0].containerPort`,
        problem: '10420 is also used by a/plugin.yaml',
      },
    ]);
  });

  it('warns when the collection and a single plugin answering one of its keys are installed together', () => {
    const single = good();
    single.metadata.name = 'slack';
    const collection = good();
    collection.metadata.name = 'collection';
    collection.metadata.annotations = {
      ...collection.metadata.annotations,
      [KEYS_ANNOTATION]: 'slack, build',
    };
    const build = good();
    build.metadata.name = 'data-job';
    expect(
      lintSharedKeys([
        { plugin: single, file: 'slack/plugin.yaml' },
        { plugin: build, file: 'data-job/plugin.yaml' },
        { plugin: collection, file: 'collection/plugin.yaml' },
      ]),
    ).toEqual([
      {
        file: 'collection/plugin.yaml',
        field: 'metadata',
        problem:
          "warning: key slack is also answered by slack/plugin.yaml in the same namespace; the agent gives its templates to whichever it asks first (drop slack from the collection's PLUGINS, or install one of them)",
      },
    ]);
  });
});
