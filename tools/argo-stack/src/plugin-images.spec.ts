import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { testImage } from '../../../test/argo/support/test-images.js';
import { pluginImageRefs, testImageBuilds } from './plugin-images.js';

const repoRoot = join(import.meta.dirname, '../../..');

describe('the images built from docker/Dockerfile for the real node', () => {
  it("are every app's, by the name its manifests give it: each plugin's sidecar and the shared agent", () => {
    const refs = pluginImageRefs(repoRoot);
    expect(Object.keys(refs).sort()).toEqual([
      'build-trigger',
      'chat-notifier',
      'collection',
      'data-job-runner',
      'event-emitter',
      'shared-agent',
    ]);
    const deployment = parseAllDocuments(
      readFileSync(join(repoRoot, 'manifests/shared-agent/deployment.yaml'), 'utf8'),
    )[0]!.toJS() as { spec: { template: { spec: { containers: Array<{ image: string }> } } } };
    expect(refs['shared-agent']).toBe(deployment.spec.template.spec.containers[0]!.image);
  });
});

describe("the real-Argo suite's test images on the real node", () => {
  const root = mkdtempSync(join(tmpdir(), 'test-images-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('are the bundles the setup built, under the names the suites give their sidecars', () => {
    expect(testImageBuilds(root)).toEqual([]);
    mkdirSync(join(root, 'dist/test/scripted-plugin'), { recursive: true });
    writeFileSync(join(root, 'dist/test/scripted-plugin/main.js'), '');
    mkdirSync(join(root, 'dist/test/not-bundled'), { recursive: true });
    expect(testImageBuilds(root)).toEqual([
      {
        name: 'scripted-plugin',
        ref: testImage('scripted-plugin'),
        context: join(root, 'dist/test/scripted-plugin'),
      },
    ]);
  });
});
