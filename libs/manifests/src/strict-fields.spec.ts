import { unknownContainerFields, unknownObjectMetaFields } from './strict-fields.js';

describe('strict Kubernetes field checks', () => {
  it('finds unknown fields at any depth of a Container', () => {
    expect(
      unknownContainerFields({
        name: 'x',
        bogus: 1,
        ports: [{ containerPort: 1, nope: 2 }],
        securityContext: { runAsUser: 1, capabilities: { drop: ['ALL'], extra: true } },
        env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k', wrong: 1 } } }],
        resources: { requests: { cpu: '1', 'example.com/gpu': '1' } },
      }),
    ).toEqual([
      'bogus',
      'ports[0].nope',
      'securityContext.capabilities.extra',
      'env[0].valueFrom.secretKeyRef.wrong',
    ]);
  });

  it('accepts a full, valid container', () => {
    expect(
      unknownContainerFields({
        name: 'slack-executor-plugin',
        image: 'x:1',
        command: ['node'],
        args: ['a'],
        ports: [{ containerPort: 10420, protocol: 'TCP', name: 'http' }],
        env: [{ name: 'A', value: 'b' }],
        resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
        securityContext: {
          runAsNonRoot: true,
          runAsUser: 65532,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          seccompProfile: { type: 'RuntimeDefault' },
        },
        volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
        readinessProbe: { httpGet: { path: '/', port: 1 } },
      }),
    ).toEqual([]);
  });

  it('checks ObjectMeta, free-form maps allowed', () => {
    expect(
      unknownObjectMetaFields({
        name: 'x',
        labels: { any: 'thing' },
        annotations: { a: 'b' },
        colour: 'red',
      }),
    ).toEqual(['metadata.colour']);
  });
});
