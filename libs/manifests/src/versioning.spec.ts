import { parse } from 'yaml';
import type { ExecutorPlugin } from './executor-plugin.js';
import {
  ARGO_MIN_VERSION,
  imagePrefixFor,
  lintVersioning,
  parseCollectionImage,
  stampPluginYaml,
  withImagePrefix,
  type CollectionContext,
} from './versioning.js';

const ctx: CollectionContext = { root: '/repo', version: '0.2.0', argoVersion: ARGO_MIN_VERSION };

const manifest = (image: string, version = "'>= v3.3'") => `apiVersion: argoproj.io/v1alpha1
kind: ExecutorPlugin
metadata:
  name: thing   # the key
  annotations:
    workflows.argoproj.io/description: |
      Does a thing. image: ghcr.io/executor-plugins/executor-plugins/my-thing:0.1.0 stays in prose
    workflows.argoproj.io/version: ${version}
spec:
  sidecar:
    container:
      name: thing-executor-plugin
      image: ${image}   # pinned
      ports: [{ containerPort: 10500 }]
`;

describe('stampPluginYaml', () => {
  it('rewrites only the image tag and the version annotation, keeping every other byte', () => {
    const before = manifest('ghcr.io/executor-plugins/executor-plugins/my-thing:0.1.0');
    const after = stampPluginYaml(before, ctx, 'my-thing');
    expect(after).toBe(
      before
        .replace("'>= v3.3'", `'${ARGO_MIN_VERSION}'`)
        .replace('my-thing:0.1.0   # pinned', 'my-thing:0.2.0   # pinned'),
    );
    expect(stampPluginYaml(after, ctx, 'my-thing')).toBe(after);
  });

  it('keeps the quoting style of the annotation', () => {
    const double = stampPluginYaml(manifest('x:1', '">= v3.3"'), ctx, 'my-thing');
    expect(double).toContain(`workflows.argoproj.io/version: ">= v3.5"`);
    const parsed = parse(stampPluginYaml(manifest('x:1', '">= v3.3"'), ctx, 'my-thing')) as ExecutorPlugin;
    expect(parsed.metadata.annotations?.['workflows.argoproj.io/version']).toBe(ARGO_MIN_VERSION);
  });

  it("leaves other apps' and foreign images alone", () => {
    for (const image of ['ghcr.io/x/executor-plugins/other-app:0.1.0', 'python:alpine3.23']) {
      expect(stampPluginYaml(manifest(image, `'${ARGO_MIN_VERSION}'`), ctx, 'my-thing')).toBe(
        manifest(image, `'${ARGO_MIN_VERSION}'`),
      );
    }
  });

  it('does not invent a missing annotation (the lint reports it)', () => {
    const text = manifest('x:1').replace(/ {4}workflows.argoproj.io\/version.*\n/, '');
    expect(stampPluginYaml(text, ctx, 'my-thing')).toBe(text);
  });

  it('keeps what a plugin from outside the collection declares (as argo executor-plugin build does)', () => {
    const hello = manifest('docker.io/acme/hello:1.0', "'>= v3.3'");
    expect(stampPluginYaml(hello, ctx, undefined)).toBe(hello);
  });
});

describe('collection images', () => {
  it('parses and re-prefixes collection images only', () => {
    expect(parseCollectionImage('ghcr.io/acme/executor-plugins/chat-notifier:1.2.3')).toEqual({
      prefix: 'ghcr.io/acme/executor-plugins',
      app: 'chat-notifier',
      tag: '1.2.3',
    });
    expect(parseCollectionImage('ghcr.io/acme/other/chat-notifier:1.2.3')).toBeUndefined();
    expect(withImagePrefix('ghcr.io/a/executor-plugins/x:1.0.0', 'ghcr.io/b/executor-plugins')).toBe(
      'ghcr.io/b/executor-plugins/x:1.0.0',
    );
    expect(withImagePrefix('node:22', 'ghcr.io/b/executor-plugins')).toBe('node:22');
  });

  it('lower-cases the owner and refuses what is not an owner name', () => {
    expect(imagePrefixFor('Acme-Corp')).toBe('ghcr.io/acme-corp/executor-plugins');
    expect(() => imagePrefixFor('a/b')).toThrow('not a GitHub owner name');
    expect(() => imagePrefixFor('')).toThrow('not a GitHub owner name');
  });
});

describe('lintVersioning', () => {
  const plugin = (image: string, version?: string): ExecutorPlugin => ({
    metadata: {
      name: 'thing',
      annotations: version ? { 'workflows.argoproj.io/version': version } : {},
    },
    spec: { sidecar: { container: { image } } },
  });

  it('accepts a stamped plugin', () => {
    expect(
      lintVersioning(
        plugin('ghcr.io/o/executor-plugins/my-thing:0.2.0', ARGO_MIN_VERSION),
        'p.yaml',
        ctx,
        'my-thing',
      ),
    ).toEqual([]);
  });

  it('reports a tag other than the package version, another image and another Argo minimum', () => {
    const problems = (p: ExecutorPlugin) =>
      lintVersioning(p, 'p.yaml', ctx, 'my-thing').map((f) => f.problem);
    expect(problems(plugin('ghcr.io/o/executor-plugins/my-thing:0.1.0', ARGO_MIN_VERSION))).toEqual([
      "tag 0.1.0 differs from package.json's version 0.2.0 (run npm run plugin:build)",
    ]);
    expect(problems(plugin('docker.io/me/my-thing:0.2.0', ARGO_MIN_VERSION))).toEqual([
      "docker.io/me/my-thing:0.2.0 is not this app's image: use ghcr.io/executor-plugins/executor-plugins/my-thing:0.2.0",
    ]);
    expect(problems(plugin('ghcr.io/o/executor-plugins/my-thing:0.2.0', '>= v3.3'))).toEqual([
      `'>= v3.3' differs from the collection's '${ARGO_MIN_VERSION}' (run npm run plugin:build)`,
    ]);
  });

  it('checks nothing for plugins that are not apps of this repository: they declare their own versions', () => {
    expect(lintVersioning(plugin('python:alpine', ARGO_MIN_VERSION), 'p.yaml', ctx, undefined)).toEqual([]);
    expect(lintVersioning(plugin('python:alpine', '>= v3.3'), 'p.yaml', ctx, undefined)).toEqual([]);
  });
});
