// The shared agent's install files against the real tools: the Helm chart linted and rendered by the real
// helm (built from tools/argo-stack/go/helm), its output applied to the real API server, where its service
// account may do exactly what the agent needs; manifests/shared-agent rendered by kubectl's kustomize and
// accepted by the API server whole; the two grant the same rights.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { ensureBinarySet } from '../../tools/argo-stack/src/binaries.js';
import { kubectl, repoRoot } from './support/cluster.js';
import { sharedStack } from './support/shared-stack.js';

const NAMESPACE = 'ep-helm';
const CHART = join(repoRoot, 'charts/shared-agent');

interface Doc {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: unknown[];
  spec?: { template?: { spec?: { containers?: Array<Record<string, unknown>> } } };
}

const docs = (text: string) =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as Doc)
    .filter(Boolean);

describe('the shared agent install files under the real tools', () => {
  const state = sharedStack();
  let helm = '';
  const run = (...args: string[]) =>
    execFileSync(helm, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  beforeAll(async () => {
    helm = join(await ensureBinarySet(repoRoot, 'helm', (line) => console.error(line)), 'helm');
  }, 60 * 60_000);
  afterAll(() => {
    kubectl(state, [
      'delete',
      '--ignore-not-found',
      'clusterrole,clusterrolebinding',
      `executor-plugins-shared-agent-${NAMESPACE}`,
    ]);
  });

  it('the chart passes helm lint --strict, with its defaults and with namespaces and external plugins', () => {
    expect(run('lint', '--strict', CHART)).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(
      run(
        'lint',
        '--strict',
        CHART,
        '--set',
        'agent.namespaces={team-a,team-b}',
        '--set',
        'agent.externalPlugins[0].name=hello',
        '--set',
        'agent.externalPlugins[0].url=http://localhost:4355',
      ),
    ).toContain('0 chart(s) failed');
  });

  it('renders what the API server accepts, and its service account may do exactly what the agent needs', () => {
    const rendered = run('template', 'shared-agent', CHART, '-n', NAMESPACE, '--set', 'replicaCount=0');
    kubectl(
      state,
      ['apply', '-f', '-'],
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${NAMESPACE}\n`,
    );
    kubectl(state, ['apply', '-n', NAMESPACE, '-f', '-'], rendered);
    const as = `--as=system:serviceaccount:${NAMESPACE}:shared-agent`;
    const can = (...args: string[]) => kubectl(state, ['auth', 'can-i', as, ...args]).trim() === 'yes';
    const cannot = (...args: string[]) => {
      try {
        kubectl(state, ['auth', 'can-i', as, ...args]);
        return false;
      } catch {
        return true; // can-i exits 1 with "no"
      }
    };
    expect([
      can('list', 'workflowtasksets.argoproj.io', '--all-namespaces'),
      can('watch', 'workflowtasksets.argoproj.io', '-n', 'team-x'),
      can('get', 'workflowtasksets.argoproj.io', '-n', 'team-x'),
      can('patch', 'workflowtasksets.argoproj.io', '--subresource=status', '-n', 'team-x'),
      can('get', 'workflows.argoproj.io', '-n', 'team-x'),
      can('get', 'secrets', '-n', 'team-x'),
      can('create', 'leases.coordination.k8s.io', '-n', NAMESPACE),
      can('update', 'leases.coordination.k8s.io', '-n', NAMESPACE),
    ]).toEqual([true, true, true, true, true, true, true, true]);
    expect([
      cannot('patch', 'workflowtasksets.argoproj.io', '-n', 'team-x'),
      cannot('delete', 'workflowtasksets.argoproj.io', '-n', 'team-x'),
      cannot('list', 'secrets', '-n', 'team-x'),
      cannot('create', 'pods', '-n', 'team-x'),
      cannot('patch', 'workflows.argoproj.io', '-n', 'team-x'),
      cannot('create', 'leases.coordination.k8s.io', '-n', 'argo'),
    ]).toEqual([true, true, true, true, true, true]);
    const deployment = docs(rendered).find((d) => d.kind === 'Deployment')!;
    const env =
      (deployment.spec!.template!.spec!.containers![0]!.env as Array<{ name: string; value?: string }>) ?? [];
    expect(env.filter((e) => e.name === 'PLUGINS')).toEqual([
      { name: 'PLUGINS', value: 'notify,build,data-job,workflow-event' },
    ]);
    expect(env.map((e) => e.name)).toEqual(
      expect.arrayContaining(['SLACK_BOT_TOKEN', 'JENKINS_URL', 'ARGO_TOKEN']),
    );
  });

  it('manifests/shared-agent is accepted whole by the API server and grants what the chart grants', () => {
    const kustomized = kubectl(state, ['kustomize', join(repoRoot, 'manifests/shared-agent')]);
    kubectl(state, ['apply', '--dry-run=server', '-f', '-'], kustomized);
    const chart = run('template', 'shared-agent', CHART, '-n', 'argo');
    const rules = (text: string, kind: string) => docs(text).find((d) => d.kind === kind)?.rules;
    for (const kind of ['ClusterRole', 'Role']) expect(rules(chart, kind)).toEqual(rules(kustomized, kind));
    const container = (text: string) => {
      const c = docs(text).find((d) => d.kind === 'Deployment')!.spec!.template!.spec!.containers![0]!;
      return {
        securityContext: c.securityContext,
        resources: c.resources,
        probes: [c.readinessProbe, c.livenessProbe],
      };
    };
    expect(container(chart)).toEqual(container(kustomized));
  });
});
