import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sharedAgentVersionProblems } from './shared-agent.js';

describe("the shared agent's install files carry the collection's version", () => {
  it('holds for the repository', () => {
    const root = resolve(import.meta.dirname, '../../..');
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(sharedAgentVersionProblems(root, version)).toEqual([]);
  });

  it('names the Deployment image and the chart fields that differ', () => {
    const root = mkdtempSync(join(tmpdir(), 'shared-agent-version-'));
    mkdirSync(join(root, 'manifests/shared-agent'), { recursive: true });
    mkdirSync(join(root, 'charts/shared-agent'), { recursive: true });
    writeFileSync(
      join(root, 'manifests/shared-agent/deployment.yaml'),
      'spec:\n  template:\n    spec:\n      containers:\n        - image: ghcr.io/x/executor-plugins/shared-agent:0.0.9\n',
    );
    writeFileSync(join(root, 'charts/shared-agent/Chart.yaml'), 'version: 0.1.0\nappVersion: 0.0.9\n');
    expect(sharedAgentVersionProblems(root, '0.1.0')).toEqual([
      "manifests/shared-agent/deployment.yaml: image ghcr.io/x/executor-plugins/shared-agent:0.0.9 is not the shared agent's image of version 0.1.0",
      "charts/shared-agent/Chart.yaml: appVersion 0.0.9 differs from package.json's version 0.1.0",
    ]);
    rmSync(root, { recursive: true });
  });

  it("names the plugins chart's fields that differ", () => {
    const root = mkdtempSync(join(tmpdir(), 'plugins-chart-version-'));
    mkdirSync(join(root, 'charts/executor-plugins'), { recursive: true });
    writeFileSync(join(root, 'charts/executor-plugins/Chart.yaml'), 'version: 0.0.9\nappVersion: 0.1.0\n');
    expect(sharedAgentVersionProblems(root, '0.1.0')).toEqual([
      "charts/executor-plugins/Chart.yaml: version 0.0.9 differs from package.json's version 0.1.0",
    ]);
    rmSync(root, { recursive: true });
  });
});
