// Every plugin of the repository has the files the suites find plugins by: a plugin lacking one fails here,
// naming the file, instead of being left out of the conformance, reliability and bench suites.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { missingPluginFiles, pluginApps } from '../kit/plugin-files.js';
import { repoRoot } from './scratch-repo.js';

describe('the files every plugin has', () => {
  it.each(pluginApps(repoRoot))('%s has them all', (app) => {
    expect({ app, missing: missingPluginFiles(repoRoot, app) }).toEqual({ app, missing: [] });
  });

  describe('a plugin lacking some', () => {
    let root: string;
    const write = (file: string, text = '') => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    };
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'plugin-files-'));
      write(
        'manifests/half/plugin.yaml',
        'spec: {sidecar: {container: {env: [{name: LOG_LEVEL, value: info}, {name: HALF_URL, value: x}]}}}',
      );
      write(
        'manifests/pure/plugin.yaml',
        'spec: {sidecar: {container: {env: [{name: LOG_LEVEL, value: info}]}}}',
      );
      write('apps/pure/src/main.ts');
      write('apps/pure/src/pure.plugin.ts');
      write('apps/pure/test/conformance.json', '{"key": "pure", "config": {}}');
      write('manifests/pure/examples/pure-example.yaml', 'kind: Workflow');
      write('docs/pure.md');
      write('apps/half/src/main.ts');
      write('apps/half/src/half.plugin.ts');
      write('apps/half/test/conformance.json', '{"key": "half"}');
      write('apps/not-a-plugin/src/main.ts');
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('is found by its manifest, and each file it lacks is named', () => {
      expect(pluginApps(root)).toEqual(['half', 'pure']);
      expect(missingPluginFiles(root, 'half')).toEqual([
        'apps/half/demo/upstreams.ts',
        'apps/half/test/conformance.json: "key" and "config"',
        'manifests/half/examples/*.yaml',
        'docs/half.md',
      ]);
    });

    it('needs no demo/upstreams.ts when its sidecar has no admin setting (LOG_LEVEL alone)', () => {
      expect(missingPluginFiles(root, 'pure')).toEqual([]);
    });
  });
});
