// Every example workflow of manifests/<app>/examples under the real controller and agent, each plugin
// installed from manifests/<app> with a Secret pointing at its stand-ins; each ends as `npm run demo` says.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setStandInHost, type DemoUpstreams } from '@app/testing';
import { startDemoUpstreams } from '../../apps/build-trigger/demo/upstreams.js';
import {
  create,
  examples,
  installPlugin,
  prepareWorkflowNamespace,
  stack,
  waitForWorkflow,
} from './support/cluster.js';

const EXPECT = 'executor-plugins.dev/demo-expect';

describe('examples under the real Argo (single plugins)', () => {
  const state = stack();
  const namespace = 'ep-single';
  let upstreams: DemoUpstreams;

  beforeAll(async () => {
    setStandInHost(state.hostAddr);
    prepareWorkflowNamespace(state, namespace);
    upstreams = await startDemoUpstreams();
    installPlugin(state, namespace, 'build-trigger', upstreams.env);
  });
  afterAll(async () => {
    await upstreams?.close();
  });

  it('build-trigger: every example ends as the demo says', async () => {
    const runs = examples('build-trigger')
      .filter(({ doc }) => doc.kind === 'Workflow')
      .map(({ file, doc }) => ({
        file,
        expected: doc.metadata.annotations?.[EXPECT] ?? 'Succeeded',
        name: create(state, namespace, doc),
      }));
    const outcomes = await Promise.all(
      runs.map((r) => waitForWorkflow(state, namespace, r.name, 5 * 60_000)),
    );
    const lines = runs.map(
      (r, i) => `${r.file}: ${outcomes[i].phase}${outcomes[i].message ? ` (${outcomes[i].message})` : ''}`,
    );
    console.log(lines.join('\n'));
    expect(outcomes.map((o) => o.phase)).toEqual(runs.map((r) => r.expected));
  });
});
