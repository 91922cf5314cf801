import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  buildPluginDir,
  fromConfigMap,
  kustomizeReadme,
  marshalGoYaml,
  parseExecutorPlugin,
  toConfigMap,
  writeNoFollow,
  writePluginDir,
  type ExecutorPlugin,
} from '@app/manifests';

const hello = join(import.meta.dirname, 'fixtures/hello');

function dirWith(pluginYaml: string, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-build-'));
  writeFileSync(join(dir, 'plugin.yaml'), pluginYaml);
  for (const [name, content] of Object.entries(extra)) writeFileSync(join(dir, name), content);
  return dir;
}

const minimal = (container: string, meta = 'name: my-plug') =>
  `apiVersion: argoproj.io/v1alpha1\nkind: ExecutorPlugin\nmetadata:\n  ${meta}\nspec:\n  sidecar:\n    container:\n${container}`;
const FULL = `      ports: [{containerPort: 1234}]\n      resources: {requests: {}, limits: {}}\n      securityContext: {}\n`;

describe('plugin:build behaves like `argo executor-plugin build`', () => {
  it.each([
    [
      'no ports (1)',
      '      resources: {requests: {}, limits: {}}\n      securityContext: {}\n',
      'sidecar is invalid: at least one port is mandatory',
    ],
    [
      'no requests (2)',
      '      ports: [{containerPort: 1}]\n      resources: {limits: {}}\n      securityContext: {}\n',
      'sidecar is invalid: resources requests are mandatory',
    ],
    [
      'no limits (3)',
      '      ports: [{containerPort: 1}]\n      resources: {requests: {}}\n      securityContext: {}\n',
      'sidecar is invalid: resources limits are mandatory',
    ],
    [
      'no securityContext (4)',
      '      ports: [{containerPort: 1}]\n      resources: {requests: {}, limits: {}}\n',
      'sidecar is invalid: security context is mandatory',
    ],
    [
      'several problems, first reported (5)',
      '      name: x\n',
      'sidecar is invalid: at least one port is mandatory',
    ],
  ])('%s', (_name, container, message) => {
    const dir = dirWith(minimal(container));
    expect(() => writePluginDir(dir)).toThrow(message);
    expect(existsSync(join(dir, 'my-plug-executor-plugin-configmap.yaml'))).toBe(false);
  });

  it('accepts empty requests, limits and securityContext and a port-less port entry (6)', () => {
    const dir = dirWith(
      minimal('      ports: [{}]\n      resources: {requests: {}, limits: {}}\n      securityContext: {}\n'),
    );
    expect(() => buildPluginDir(dir)).not.toThrow();
  });

  it.each([
    ['spec.sidecar.foo', '    foo: 1\n'],
    ['spec.sidecar.container.bogus', '      bogus: 1\n'],
    ['spec.sidecar.container.ports[0].nope', '      env: []\n'],
  ])('rejects an unknown field anywhere: %s (7)', (field) => {
    const yaml =
      field === 'spec.sidecar.foo'
        ? minimal(FULL).replace('  sidecar:\n', '  sidecar:\n    foo: 1\n')
        : field === 'spec.sidecar.container.bogus'
          ? minimal(FULL + '      bogus: 1\n')
          : minimal(FULL.replace('{containerPort: 1234}', '{containerPort: 1234, nope: 2}'));
    expect(() => buildPluginDir(dirWith(yaml))).toThrow(`unknown field "${field}"`);
  });

  it('rejects duplicate keys (strict)', () => {
    expect(() => buildPluginDir(dirWith(minimal(FULL + '      securityContext: {}\n')))).toThrow();
  });

  it('refuses two server.* files (8) and copies one verbatim into args (9)', () => {
    expect(() => buildPluginDir(dirWith(minimal(FULL), { 'server.py': 'a', 'server.js': 'b' }))).toThrow(
      'plugin my-plug has more than one server.* file',
    );
    const withNewline = buildPluginDir(
      dirWith(minimal(FULL + '      args: [old]\n'), { 'server.js': 'console.log(1)\n' }),
    );
    expect(withNewline.plugin.spec.sidecar.container.args).toEqual(['console.log(1)\n']);
    expect(withNewline.files[0].content).toContain('args:\n    - |\n      console.log(1)\n');
    const without = buildPluginDir(dirWith(minimal(FULL), { 'server.js': 'x()\ny()' }));
    expect(without.files[0].content).toContain('args:\n    - |-\n      x()\n      y()\n');
    const oneLine = buildPluginDir(dirWith(minimal(FULL), { 'server.js': 'x()' }));
    expect(oneLine.files[0].content).toContain('args:\n    - x()\n');
  });

  it('writes <name>-executor-plugin-configmap.yaml and README.md and reports them (10)', () => {
    const dir = dirWith(minimal(FULL, 'name: hello'));
    expect(writePluginDir(dir)).toEqual([
      `${dir}/hello-executor-plugin-configmap.yaml created`,
      `${dir}/README.md created`,
    ]);
  });

  it('refuses to write through a symbolic link: README.md -> victim.txt is left alone, nothing is written', () => {
    const dir = dirWith(minimal(FULL, 'name: hello'), { 'victim.txt': 'precious\n' });
    symlinkSync('victim.txt', join(dir, 'README.md'));
    expect(() => writePluginDir(dir)).toThrow(
      `${dir}/README.md is a symbolic link (to victim.txt): plugin:build does not write through it; remove the link and build again`,
    );
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('precious\n');
    expect(existsSync(join(dir, 'hello-executor-plugin-configmap.yaml'))).toBe(false);
  });

  it('refuses a file under a linked directory below the base, and allows a linked base', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugin-build-'));
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'install'));
    expect(() => writeNoFollow(join(dir, 'install/rbac.yaml'), 'x', dir)).toThrow(
      `${dir}/install is a symbolic link (to ${dir}/elsewhere): plugin:build does not write ${dir}/install/rbac.yaml through it; remove the link and build again`,
    );
    expect(existsSync(join(dir, 'elsewhere/rbac.yaml'))).toBe(false);
    writeNoFollow(join(dir, 'install/rbac.yaml'), 'x', join(dir, 'install'));
    expect(readFileSync(join(dir, 'elsewhere/rbac.yaml'), 'utf8')).toBe('x');
  });

  it('writes the header, the key order, the name, creationTimestamp and the label (11)', () => {
    const text = buildPluginDir(dirWith(minimal(FULL))).files[0].content;
    expect(text.split('\n')[0]).toBe('# This is an auto-generated file. DO NOT EDIT');
    const keys = text
      .split('\n')
      .filter((l) => /^[a-z]/i.test(l))
      .map((l) => l.split(':')[0]);
    expect(keys).toEqual(['apiVersion', 'data', 'kind', 'metadata']);
    expect(parse(text).metadata).toEqual({
      creationTimestamp: null,
      labels: { 'workflows.argoproj.io/configmap-type': 'ExecutorPlugin' },
      name: 'my-plug-executor-plugin',
    });
  });

  it('writes automountServiceAccountToken as "false" by default and "true" when set (12)', () => {
    expect(
      parse(buildPluginDir(dirWith(minimal(FULL))).files[0].content).data[
        'sidecar.automountServiceAccountToken'
      ],
    ).toBe('false');
    const withToken = minimal(FULL).replace(
      '  sidecar:\n',
      '  sidecar:\n    automountServiceAccountToken: true\n',
    );
    expect(buildPluginDir(dirWith(withToken)).files[0].content).toContain(
      'sidecar.automountServiceAccountToken: "true"',
    );
  });

  it('writes the minimal container exactly (13)', () => {
    expect(parse(buildPluginDir(dirWith(minimal(FULL))).files[0].content).data['sidecar.container']).toBe(
      'name: ""\nports:\n- containerPort: 1234\nresources: {}\nsecurityContext: {}\n',
    );
  });

  it('copies labels, annotations and namespace (14)', () => {
    const cm = parse(
      buildPluginDir(
        dirWith(
          minimal(
            FULL,
            'name: my-plug\n  namespace: ns1\n  labels: {my-label: my-value}\n  annotations: {my-anno: x}',
          ),
        ),
      ).files[0].content,
    );
    expect(cm.metadata).toMatchObject({
      namespace: 'ns1',
      labels: { 'my-label': 'my-value', 'workflows.argoproj.io/configmap-type': 'ExecutorPlugin' },
      annotations: { 'my-anno': 'x' },
    });
  });

  describe("the engine's hello plugin (15, 16)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'hello-'));
    cpSync(hello, dir, { recursive: true });
    const built = buildPluginDir(dir);
    const text = built.files[0].content;
    const cm = parse(text);
    const container = parse(cm.data['sidecar.container']);
    const serverPy = readFileSync(join(hello, 'server.py'), 'utf8');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('matches the golden ConfigMap field by field', () => {
      expect(cm.apiVersion).toBe('v1');
      expect(cm.kind).toBe('ConfigMap');
      expect(cm.data['sidecar.automountServiceAccountToken']).toBe('true');
      expect(Object.keys(container)).toEqual([
        'args',
        'command',
        'image',
        'name',
        'ports',
        'resources',
        'securityContext',
      ]);
      expect(container.args).toEqual([serverPy]);
      expect(container.command).toEqual(['python', '-c']);
      expect(container.image).toBe('python:alpine3.23');
      expect(container.name).toBe('hello-executor-plugin');
      expect(container.ports).toEqual([{ containerPort: 4355 }]);
      expect(container.resources).toEqual({
        limits: { cpu: '200m', memory: '64Mi' },
        requests: { cpu: '100m', memory: '32Mi' },
      });
      expect(container.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        readOnlyRootFilesystem: true,
        runAsNonRoot: true,
        runAsUser: 1000,
      });
      expect(cm.metadata.annotations['workflows.argoproj.io/version']).toBe('>= v3.3');
      expect(cm.metadata.annotations['workflows.argoproj.io/description']).toMatch(
        /^This is the "hello world" plugin\.\n\nExample:\n\n```yaml\n/,
      );
      expect(cm.metadata).toMatchObject({
        creationTimestamp: null,
        labels: { 'workflows.argoproj.io/configmap-type': 'ExecutorPlugin' },
        name: 'hello-executor-plugin',
      });
      expect(cm.metadata.namespace).toBeUndefined();
    });

    it('writes the text go-yaml writes', () => {
      expect(text).toContain("    workflows.argoproj.io/version: '>= v3.3'\n");
      expect(text).toContain(
        '  sidecar.automountServiceAccountToken: "true"\n  sidecar.container: |\n    args:\n    - |\n      import json\n',
      );
      expect(text).toContain(
        '    command:\n    - python\n    - -c\n    image: python:alpine3.23\n    name: hello-executor-plugin\n    ports:\n    - containerPort: 4355\n',
      );
      expect(text).toContain(
        '    securityContext:\n      allowPrivilegeEscalation: false\n      capabilities:\n        drop:\n        - ALL\n',
      );
      expect(text.endsWith('  name: hello-executor-plugin\n')).toBe(true);
    });

    it('writes the README from the template, TAB line and trailing space included', () => {
      const readme = built.files[1].content;
      expect(
        readme.startsWith(
          '<!-- This is an auto-generated file. DO NOT EDIT -->\n# hello\n\n* Needs: >= v3.3\n* Image: python:alpine3.23\n\nThis is the "hello world" plugin.\n',
        ),
      ).toBe(true);
      expect(
        readme.endsWith(
          'Install:\n\n    kubectl apply -f hello-executor-plugin-configmap.yaml\n\nUninstall:\n\t\n    kubectl delete cm hello-executor-plugin \n',
        ),
      ).toBe(true);
    });

    it("a collection directory's README installs it with kubectl apply -k, Argo's head kept", () => {
      const argo = built.files[1].content;
      const readme = kustomizeReadme(built.plugin, 'manifests/hello');
      expect(readme.startsWith(argo.slice(0, argo.indexOf('Install:')))).toBe(true);
      expect(
        readme.endsWith(
          '\n    kubectl apply -n <namespace> -k manifests/hello\n\nUninstall:\n\n    kubectl delete -n <namespace> -k manifests/hello\n',
        ),
      ).toBe(true);
      // No Secret to create first unless the plugin has one.
      expect(readme).not.toContain('Secret');
      expect(kustomizeReadme(built.plugin, 'manifests/hello', 'secret.example.yaml')).toContain(
        '\nCreate the Secret first (secret.example.yaml), then:\n\n    kubectl apply -n <namespace> -k',
      );
    });

    it('round-trips through FromConfigMap (17)', () => {
      const back = fromConfigMap(cm);
      expect(back.metadata.name).toBe('hello');
      expect(back.kind).toBe('ExecutorPlugin');
      expect(back.spec.sidecar.automountServiceAccountToken).toBe(true);
      expect(toConfigMap({ ...back, kind: 'ExecutorPlugin' })).toEqual(toConfigMap(built.plugin));
    });
  });

  it('renders a missing version or description annotation as empty (16)', () => {
    const readme = buildPluginDir(dirWith(minimal(FULL))).files[1].content;
    expect(readme).toContain('* Needs: \n* Image: \n\n\n\nInstall:');
  });

  it('reads ConfigMaps back like the controller (17)', () => {
    const base = {
      metadata: {
        name: 'x-executor-plugin',
        labels: { 'workflows.argoproj.io/configmap-type': 'ExecutorPlugin' },
      },
    };
    expect(() => fromConfigMap({ ...base, data: {} })).toThrow(
      'sidecar is invalid: at least one port is mandatory',
    );
    const flow = {
      ...base,
      data: {
        'sidecar.container':
          "{'name': 'my-name', 'ports': [{}], 'resources': {'requests': {}, 'limits': {}}, 'securityContext': {}}",
        'sidecar.automountServiceAccountToken': 'True',
      },
    };
    const plugin: ExecutorPlugin = fromConfigMap(flow);
    expect(plugin.metadata.name).toBe('x');
    expect(plugin.spec.sidecar.automountServiceAccountToken).toBe(false);
    expect(() =>
      fromConfigMap({
        ...base,
        data: {
          'sidecar.container':
            'name: a\nbogus: 1\nports: [{}]\nresources: {requests: {}, limits: {}}\nsecurityContext: {}',
        },
      }),
    ).toThrow('unknown field "bogus"');
  });

  it('parses strictly: unknown top-level and metadata fields', () => {
    expect(() =>
      parseExecutorPlugin(
        'apiVersion: v1\nkind: ExecutorPlugin\nmetadata: {name: a, colour: red}\nspec: {sidecar: {container: {}}}\n',
      ),
    ).toThrow('unknown field "metadata.colour"');
    expect(() =>
      parseExecutorPlugin(
        'apiVersion: v1\nextra: 1\nkind: ExecutorPlugin\nmetadata: {name: a}\nspec: {sidecar: {container: {}}}\n',
      ),
    ).toThrow('unknown field "extra"');
  });
});

describe('go-yaml emitter', () => {
  it.each([
    [{ a: '' }, 'a: ""\n'],
    [{ a: 'true' }, 'a: "true"\n'],
    [{ a: 'yes' }, 'a: "yes"\n'],
    [{ a: '123' }, 'a: "123"\n'],
    [{ a: '1.5' }, 'a: "1.5"\n'],
    [{ a: 'null' }, 'a: "null"\n'],
    [{ a: '>= v3.3' }, "a: '>= v3.3'\n"],
    [{ a: "it's: here" }, "a: 'it''s: here'\n"],
    [{ a: '- x' }, "a: '- x'\n"],
    [{ a: '-c' }, 'a: -c\n'],
    [{ a: 'tab\there' }, 'a: "tab\\there"\n'],
    [{ a: 'two\nlines' }, 'a: |-\n  two\n  lines\n'],
    [{ a: 'two\nlines\n' }, 'a: |\n  two\n  lines\n'],
    [{ a: 'x\n\n' }, 'a: |+\n  x\n\n'],
    [{ a: ' lead\nx' }, 'a: |2-\n   lead\n  x\n'],
    [{ a: 'trailing \nx' }, 'a: "trailing \\nx"\n'],
    [{ a: [] }, 'a: []\n'],
    [{ a: {} }, 'a: {}\n'],
    [{ b: 1, a: [{ y: 1, x: [1, 2] }] }, 'a:\n- x:\n  - 1\n  - 2\n  "y": 1\nb: 1\n'],
    [{ a: [[1, 2], [3]] }, 'a:\n- - 1\n  - 2\n- - 3\n'],
    [{ a10: 1, a9: 2, 'a.b': 3, _x: 4 }, '_x: 4\na.b: 3\na9: 2\na10: 1\n'],
    [{ a: null, b: true, c: 0.5 }, 'a: null\nb: true\nc: 0.5\n'],
  ])('%j', (value, yaml) => {
    expect(marshalGoYaml(value)).toBe(yaml);
    expect(parse(yaml)).toEqual(value);
  });

  it('folds long plain strings at a space past column 80', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const yaml = marshalGoYaml({ description: words });
    const lines = yaml.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => l.startsWith('  ') && !l.startsWith('   '))).toBe(true);
    expect(lines[0].length).toBeGreaterThan(80);
    expect(parse(yaml)).toEqual({ description: words });
  });
});
