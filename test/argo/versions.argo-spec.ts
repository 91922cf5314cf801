// Every binary of the stack says the version of the release it is built from, as the upstream release builds
// make it say (version link flags): the API server's /version, kubectl, the controller manager, the argo CLI and
// server, argoexec and the controller. Without the flags they answer `v0.0.0-master+$Format:%H$` and
// `v0.0.0+unknown`, versions that never existed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { StackState } from '../../tools/argo-stack/src/stack.js';
import { VERSIONED_MODULE, pinnedVersion } from '../../tools/argo-stack/src/versions.js';
import { kubectl, repoRoot, stack } from './support/cluster.js';

const pinned = (set: 'kube' | 'argo') => {
  const file = join(repoRoot, 'tools/argo-stack/go', set, 'go.mod');
  return pinnedVersion(readFileSync(file, 'utf8'), VERSIONED_MODULE[set], file);
};
const run = (bin: string, args: string[]) =>
  execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the versions the binaries report', () => {
  let state: StackState;
  const kube = pinned('kube');
  const argo = pinned('argo');

  beforeAll(() => {
    state = stack();
  });

  it('are the pinned Kubernetes release: the API server, kubectl and the controller manager', () => {
    expect(kube).toBe('v1.35.4');
    const server = JSON.parse(kubectl(state, ['get', '--raw', '/version'])) as Record<string, string>;
    expect(server).toMatchObject({ gitVersion: kube, major: '1', minor: '35', gitTreeState: 'clean' });
    expect(server.gitCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(server.buildDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(server.buildDate).not.toBe('1970-01-01T00:00:00Z');
    const client = JSON.parse(kubectl(state, ['version', '--client', '-o', 'json'])) as {
      clientVersion: Record<string, string>;
    };
    expect(client.clientVersion).toMatchObject({ gitVersion: kube, gitCommit: server.gitCommit });
    expect(run(join(state.bin.kube, 'kube-controller-manager'), ['--version']).trim()).toBe(
      `Kubernetes ${kube}`,
    );
  });

  it('are the pinned Argo release: the argo CLI, the argo server, argoexec and the controller', async () => {
    expect(argo).toBe('v4.1.4');
    expect(run(join(state.bin.argo, 'argo'), ['version', '--short']).trim()).toBe(`argo: ${argo}`);
    expect(run(join(state.bin.argo, 'argoexec'), ['version', '--short']).trim()).toBe(`argoexec: ${argo}`);
    const server = (await (
      await fetch(`http://${state.hostAddr}:${state.ports.argoServer}/api/v1/version`)
    ).json()) as Record<string, string>;
    expect(server).toMatchObject({ version: argo, gitTag: argo, gitTreeState: 'clean' });
    expect(server.gitCommit).toMatch(/^[0-9a-f]{40}$/);
    const controllerLog = readFileSync(join(state.dir, 'logs/workflow-controller.log'), 'utf8');
    const starting = controllerLog
      .split('\n')
      .find((line) => line.includes('"Starting Workflow Controller"'));
    expect(starting).toContain(` version=${argo} `);
    expect(starting).toContain(` gitTag=${argo}`);
  });
});
