// The plugin called by the local agent (Argo's RPC client, requeues scaled down) with server faults.
import { runWorkflow, type WorkflowShape } from '@app/local-agent';
import { type AgentPlugin } from '@app/argo-agent';
import { DEMO_ARGO_TOKEN } from '../demo/upstreams.js';
import { startEmitterFixture, type EmitterFixture } from './support.js';

function workflow(body: Record<string, unknown>): WorkflowShape {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'emit-' },
    spec: {
      entrypoint: 'main',
      templates: [
        { name: 'main', steps: [[{ name: 'emit', template: 'emit' }]] },
        {
          name: 'emit',
          outputs: {
            parameters: ['status', 'namespace', 'discriminator'].map((name) => ({
              name,
              valueFrom: { supplied: {} },
            })),
          },
          plugin: { 'workflow-event': body },
        },
      ],
    },
  };
}

describe('workflow-event through the local agent', () => {
  let f: EmitterFixture;
  let plugin: AgentPlugin;
  const start = async (...args: Parameters<typeof startEmitterFixture>) => {
    f = await startEmitterFixture(...args);
    plugin = { name: 'workflow-event', url: f.h.url, token: f.h.token };
  };
  afterEach(() => f.close());
  const run = (body: Record<string, unknown>) =>
    runWorkflow(workflow(body), { plugins: [plugin], timeScale: 0.01 });

  it('a step emits one event; its outputs are usable by later steps', async () => {
    await start();
    const result = await run({ discriminator: 'd', headers: { 'x-kind': 'record' } });
    expect(result.phase).toBe('Succeeded');
    expect(result.node('emit')?.outputs?.parameters).toEqual([
      { name: 'status', value: 'accepted' },
      { name: 'namespace', value: 'argo' },
      { name: 'discriminator', value: 'd' },
    ]);
    expect(f.endpoint.received()).toHaveLength(1);
    expect(
      f.endpoint.workflows()[0]!.spec.arguments!.parameters.find((p) => p.name === 'key')!.value,
    ).toMatch(/^[0-9a-f]{64}$/);
  });

  it('503 (queue full) then 200: the node requeues, then succeeds; exactly one event', async () => {
    await start({ asyncDispatch: true, queueSize: 1, workers: 1 });
    f.endpoint.pauseWorkers();
    await fetch(`${f.endpoint.url}/api/v1/events/argo/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEMO_ARGO_TOKEN}` },
      body: '{}',
    });
    const running = run({ headers: { 'x-kind': 'record' } });
    // Resumed once the node's first call was refused (a fixed wait raced a slow agent start).
    for (let i = 0; i < 200 && !f.endpoint.received().some((e) => e.status === 503); i++)
      await new Promise((r) => setTimeout(r, 25));
    f.endpoint.resumeWorkers();
    const result = await running;
    expect(result.phase).toBe('Succeeded');
    expect(result.node('emit')!.calls).toBeGreaterThanOrEqual(2);
    await f.endpoint.idle();
    const statuses = f.endpoint
      .received()
      .filter((e) => e.metadata['x-kind'])
      .map((e) => e.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(f.endpoint.workflows()).toHaveLength(1);
  });

  it('500 → the node fails after one call, no retry', async () => {
    await start();
    const result = await run({ headers: { 'x-kind': 'fail' } });
    expect(result.phase).toBe('Failed');
    expect(result.node('emit')?.message).toMatch(
      /→ 500: failed to dispatch event: .*Some bindings may already have submitted/,
    );
    expect(result.node('emit')!.calls).toBe(1);
    expect(f.endpoint.received()).toHaveLength(1);
  });

  it('401 → the node fails with the RBAC hint', async () => {
    await start({}, { ARGO_TOKEN: 'Bearer revoked-token-000000' });
    const result = await run({ headers: { 'x-kind': 'record' } });
    expect(result.phase).toBe('Failed');
    expect(result.node('emit')?.message).toContain('The Argo Server does not accept ARGO_TOKEN');
    expect(result.node('emit')?.message).toContain('list workfloweventbindings');
    expect(result.node('emit')?.message).not.toContain('revoked-token-000000');
  });
});
