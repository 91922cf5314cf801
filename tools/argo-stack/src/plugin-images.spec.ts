import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testImage } from '../../../test/argo/support/test-images.js';
import { testImageBuilds } from './plugin-images.js';

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
