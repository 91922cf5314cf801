import {
  outputValue,
  runWorkflow,
  startHarness,
  type PluginHarness,
  type StandInServer,
} from '@app/local-agent';
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

interface ProviderCase {
  provider: string;
  ok: Record<string, unknown>;
  failing: Record<string, unknown>;
  endless: Record<string, unknown>;
  builds(): number;
  server(): StandInServer;
  /** The poll requests (where faults are injected). */
  polls: RegExp;
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
      .addJob('qa/second-time-lucky', { parameters: ['ARGO_KEY'], results: ['FAILURE', 'SUCCESS'] })
      .addJob('qa/broken', { parameters: ['ARGO_KEY'], results: ['FAILURE'] })
      .addJob('qa/endless', { parameters: ['ARGO_KEY'], build: { polls: 100_000 } });
    const keyed = { inputs: { argo_key: {} }, runName: '${{ inputs.argo_key }}' };
    up.github
      .addWorkflow('acme/webapp', { id: 2, file: 'lint.yml', ...keyed, conclusions: ['failure'] })
      .addWorkflow('acme/webapp', { id: 3, file: 'endless.yml', ...keyed, inProgress: { polls: 100_000 } });
    up.gitlab
      .addProject({ id: 76, path: 'acme/broken', outcomes: ['failed'] })
      .addProject({ id: 77, path: 'acme/forever', stages: [{ status: 'running', polls: 100_000 }] });
    h = await startHarness(buildTriggerPlugin, { env: { ...up.env, UPSTREAM_TIMEOUT: '500ms' } });
  });
  afterAll(async () => {
    await h.close();
    await up.close();
  });

  const cases: ProviderCase[] = [
    {
      provider: 'jenkins',
      ok: { jenkins: { job: 'platform/app-build', parameters: { TARGET: 'matrix' } } },
      failing: { jenkins: { job: 'qa/broken' } },
      endless: { jenkins: { job: 'qa/endless' } },
      builds: () => up.jenkins.builds('platform/app-build').length,
      server: () => up.jenkins.server,
      polls: /\/job\/platform\/job\/app-build\/\d+\/api\/json$|\/queue\/item\//,
    },
    {
      provider: 'github',
      ok: {
        github: { repo: 'acme/webapp', workflow: 'ci.yml', ref: 'main', inputs: { environment: 'matrix' } },
      },
      failing: { github: { repo: 'acme/webapp', workflow: 'lint.yml', ref: 'main' } },
      endless: { github: { repo: 'acme/webapp', workflow: 'endless.yml', ref: 'main' } },
      builds: () => up.github.runsOf('acme/webapp', 'ci.yml').length,
      server: () => up.github.server,
      polls: /\/actions\/runs\/\d+$/,
    },
    {
      provider: 'gitlab',
      ok: { gitlab: { project: 'acme/deploy', ref: 'main', variables: { DEPLOY_ENV: 'matrix' } } },
      failing: { gitlab: { project: 'acme/broken', ref: 'main' } },
      endless: { gitlab: { project: 'acme/forever', ref: 'main' } },
      builds: () => up.gitlab.pipelinesOf('acme/deploy').length,
      server: () => up.gitlab.server,
      polls: /\/pipelines\/\d+$/,
    },
  ];

  describe.each(cases)('$provider', ({ provider, ok, failing, endless, builds, server, polls }) => {
    it('success: one build although the agent calls many times, through 5xx, 429 and resets while polling', async () => {
      const before = builds();
      const match = (req: { method: string; path: string }) => req.method === 'GET' && polls.test(req.path);
      const injectedBefore = server().faults.injected;
      server()
        .faults.add({ kind: 'status', status: 502 }, { match })
        .add({ kind: 'rate-limit', retryAfterSeconds: 2 }, { match })
        .add({ kind: 'reset' }, { match });
      let result;
      try {
        result = await run(workflow(ok));
      } finally {
        server().faults.clear();
      }
      expect(result.phase).toBe('Succeeded');
      expect(server().faults.injected - injectedBefore).toBe(3);
      const node = result.node(result.name)!;
      expect(node.calls).toBeGreaterThanOrEqual(3);
      expect(node.message).toMatch(
        new RegExp(`^${provider}: .* finished (SUCCESS|success) after \\d+s: https://`),
      );
      expect(outputValue(node, 'provider')).toBe(provider);
      expect(outputValue(node, 'status')).toBe('succeeded');
      expect(outputValue(node, 'id')).toMatch(/^\d+$/);
      expect(builds() - before).toBe(1);
    });

    it('failure: the node fails naming the upstream result and linking the run', async () => {
      const result = await run(workflow(failing));
      expect(result.phase).toBe('Failed');
      expect(result.node(result.name)?.message).toMatch(
        new RegExp(`^${provider}: .* finished (FAILURE|failure|failed) after \\d+s: https://`),
      );
    });

    it('timeout: the build is cancelled upstream and the node fails', async () => {
      const cancelsBefore = server().calls.filter(
        (c) => c.method === 'POST' && /cancel|stop/i.test(c.path),
      ).length;
      const result = await run(workflow({ ...endless, timeout: '1s' }));
      expect(result.phase).toBe('Failed');
      expect(result.node(result.name)?.message).toMatch(
        new RegExp(`^${provider}: .* timed out after 1s; cancelled https?://`),
      );
      expect(
        server().calls.filter((c) => c.method === 'POST' && /cancel|stop/i.test(c.path)).length -
          cancelsBefore,
      ).toBe(1);
    });
  });

  it('Jenkins: UNSTABLE fails the workflow; unstableIsSuccess accepts it', async () => {
    const strict = await run(workflow({ jenkins: { job: 'qa/flaky' } }));
    expect(strict.phase).toBe('Failed');
    expect(strict.node(strict.name)?.message).toContain('finished UNSTABLE');
    const lenient = await run(workflow({ jenkins: { job: 'qa/flaky' }, unstableIsSuccess: true }));
    expect(lenient.phase).toBe('Succeeded');
    expect(outputValue(lenient.node(lenient.name), 'result')).toBe('UNSTABLE');
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
    const before = up.jenkins.builds('qa/broken').length;
    const same = await run(workflow({ jenkins: { job: 'qa/broken' } }, { retryStrategy: { limit: '2' } }));
    expect(same.phase).toBe('Failed');
    expect(same.nodes.filter((n) => n.type === 'Plugin' && n.phase === 'Failed')).toHaveLength(3);
    expect(up.jenkins.builds('qa/broken').length - before).toBe(1);
  });

  it('parallel steps: identical calls share one build, distinct inputs get one build each', async () => {
    const before = up.jenkins.builds('platform/app-build').length;
    const result = await run({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { generateName: 'build-fanout-' },
      spec: {
        entrypoint: 'main',
        templates: [
          {
            name: 'main',
            steps: [
              [
                {
                  name: 'same-a',
                  template: 'build',
                  arguments: { parameters: [{ name: 'target', value: 'shared' }] },
                },
                {
                  name: 'same-b',
                  template: 'build',
                  arguments: { parameters: [{ name: 'target', value: 'shared' }] },
                },
                {
                  name: 'each',
                  template: 'build',
                  arguments: { parameters: [{ name: 'target', value: '{{item}}' }] },
                  withItems: ['eu', 'us', 'ap'],
                },
              ],
            ],
          },
          {
            name: 'build',
            inputs: { parameters: [{ name: 'target' }] },
            outputs: { parameters: OUTPUTS },
            plugin: {
              build: {
                jenkins: {
                  job: 'platform/app-build',
                  parameters: { TARGET: '{{inputs.parameters.target}}' },
                },
                pollInterval: '2s',
              },
            },
          },
        ],
      },
    });
    expect(result.phase).toBe('Succeeded');
    const targets = up.jenkins
      .builds('platform/app-build')
      .slice(before)
      .map((b) => b.params.TARGET)
      .sort();
    expect(targets).toEqual(['ap', 'eu', 'shared', 'us']);
    expect(outputValue(result.node('same-a'), 'id')).toBe(outputValue(result.node('same-b'), 'id'));
  });

  it('an invalid body fails the node naming the field, without a requeue', async () => {
    const result = await run(workflow({ gitlab: { project: 'acme/deploy' } }));
    expect(result.phase).toBe('Failed');
    const node = result.node(result.name)!;
    expect(node.message).toBe('build: invalid config: gitlab.ref: must be a branch or tag name');
    expect(node.calls).toBe(1);
  });
});
