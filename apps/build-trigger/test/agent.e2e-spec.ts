import { outputValue, runWorkflow, startHarness, type PluginHarness } from '@app/testing';
import { buildTriggerPlugin } from '../src/build-trigger.plugin.js';
import { startDemoUpstreams, type BuildDemoUpstreams } from '../demo/upstreams.js';

const OUTPUTS = ['provider', 'id', 'url', 'status', 'result', 'duration'].map((name) => ({
  name,
  valueFrom: { supplied: {} },
}));

function workflow(body: Record<string, unknown>, template: Record<string, unknown> = {}) {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'build-agent-' },
    spec: {
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          outputs: { parameters: OUTPUTS },
          plugin: { build: { pollInterval: '2s', ...body } },
          ...template,
        },
      ],
    },
  };
}

describe('build plugin through the local agent', () => {
  let up: BuildDemoUpstreams;
  let h: PluginHarness;
  const run = (wf: object) =>
    runWorkflow(wf as never, { plugins: [{ name: 'build', url: h.url, token: h.token }], timeScale: 0.01 });

  beforeAll(async () => {
    up = await startDemoUpstreams();
    up.jenkins
      .addJob('qa/flaky', { parameters: ['ARGO_KEY'], results: ['UNSTABLE'] })
      .addJob('qa/second-time-lucky', { parameters: ['ARGO_KEY'], results: ['FAILURE', 'SUCCESS'] });
    up.github.addWorkflow('acme/webapp', {
      id: 2,
      file: 'lint.yml',
      inputs: { argo_key: {} },
      runName: '${{ inputs.argo_key }}',
      conclusions: ['failure'],
    });
    up.gitlab.addProject({ id: 77, path: 'acme/forever', stages: [{ status: 'running', polls: 100_000 }] });
    h = await startHarness(buildTriggerPlugin, { env: { ...up.env, UPSTREAM_TIMEOUT: '500ms' } });
  });
  afterAll(async () => {
    await h.close();
    await up.close();
  });

  it('Jenkins: success after several requeues, one build, outputs supplied', async () => {
    const before = up.jenkins.builds('platform/app-build').length;
    const result = await run(
      workflow({ jenkins: { job: 'platform/app-build', parameters: { TARGET: 'agent' } } }),
    );
    expect(result.phase).toBe('Succeeded');
    const node = result.node(result.name)!;
    expect(node.calls).toBeGreaterThanOrEqual(4);
    expect(node.message).toMatch(
      /^jenkins: platform\/app-build #\d+ finished SUCCESS after \d+s: https:\/\/jenkins\.example\.com\//,
    );
    expect(outputValue(node, 'status')).toBe('succeeded');
    expect(outputValue(node, 'result')).toBe('SUCCESS');
    expect(up.jenkins.builds('platform/app-build').length - before).toBe(1);
  });

  it('Jenkins: UNSTABLE fails the workflow; unstableIsSuccess accepts it', async () => {
    const strict = await run(workflow({ jenkins: { job: 'qa/flaky' } }));
    expect(strict.phase).toBe('Failed');
    expect(strict.node(strict.name)?.message).toContain('finished UNSTABLE');
    const lenient = await run(workflow({ jenkins: { job: 'qa/flaky' }, unstableIsSuccess: true }));
    expect(lenient.phase).toBe('Succeeded');
  });

  it('retries: key "{{retries}}" gives each attempt its own build; without it a retry repeats the failure', async () => {
    const retried = await run(
      workflow(
        { jenkins: { job: 'qa/second-time-lucky' }, key: 'attempt-{{retries}}' },
        { retryStrategy: { limit: '1' } },
      ),
    );
    expect(retried.phase).toBe('Succeeded');
    expect(up.jenkins.builds('qa/second-time-lucky').map((b) => b.result)).toEqual(['FAILURE', 'SUCCESS']);
    const same = await run(workflow({ jenkins: { job: 'qa/flaky' } }, { retryStrategy: { limit: '2' } }));
    expect(same.phase).toBe('Failed');
    expect(same.nodes.filter((n) => n.type === 'Plugin' && n.phase === 'Failed')).toHaveLength(3);
    expect(up.jenkins.builds('qa/flaky').length).toBe(3); // strict, lenient, and one for all three attempts here
  });

  it('GitHub: a failed conclusion fails the node with a link to the run', async () => {
    const result = await run(
      workflow({ github: { repo: 'acme/webapp', workflow: 'lint.yml', ref: 'main' } }),
    );
    expect(result.phase).toBe('Failed');
    expect(result.node(result.name)?.message).toMatch(
      /^github: acme\/webapp lint\.yml run \d+ finished failure after \d+s: https:\/\/github\.example\/acme\/webapp\/actions\/runs\/\d+$/,
    );
  });

  it('GitHub: 5xx and 429 replies while polling only delay the node; one run is dispatched', async () => {
    const before = up.github.runsOf('acme/webapp', 'ci.yml').length;
    up.github.server.faults.randomly({
      seed: 7,
      rate: 0.4,
      faults: [
        { kind: 'status', status: 502 },
        { kind: 'rate-limit', retryAfterSeconds: 3 },
        { kind: 'reset' },
      ],
      match: (req) => req.method === 'GET' && req.path.includes('/actions/runs/'),
    });
    try {
      const result = await run(
        workflow({
          github: { repo: 'acme/webapp', workflow: 'ci.yml', ref: 'main', inputs: { environment: 'faults' } },
        }),
      );
      expect(result.phase).toBe('Succeeded');
      expect(up.github.server.faults.injected).toBeGreaterThan(0);
    } finally {
      up.github.server.faults.clear();
    }
    expect(up.github.runsOf('acme/webapp', 'ci.yml').length - before).toBe(1);
  });

  it('GitLab: the timeout cancels the pipeline and fails the node', async () => {
    const result = await run(workflow({ gitlab: { project: 'acme/forever', ref: 'main' }, timeout: '1s' }));
    expect(result.phase).toBe('Failed');
    expect(result.node(result.name)?.message).toMatch(
      /^gitlab: acme\/forever pipeline \d+ timed out after 1s; cancelled https:\/\/gitlab\.example\/acme\/forever\/-\/pipelines\/\d+$/,
    );
    expect(up.gitlab.pipelinesOf('acme/forever').map((p) => p.status)).toEqual(['canceled']);
  });

  it('an invalid body fails the node naming the field, without a requeue', async () => {
    const result = await run(workflow({ gitlab: { project: 'acme/deploy' } }));
    expect(result.phase).toBe('Failed');
    const node = result.node(result.name)!;
    expect(node.message).toBe('build: invalid config: gitlab.ref: must be a branch or tag name');
    expect(node.calls).toBe(1);
  });
});
