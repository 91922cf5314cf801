import { runWorkflow, type WorkflowShape } from '@app/local-agent';
import { startPagerDutyDemo, type PagerDutyDemo } from '../demo/pagerduty.js';
import { describeProviderContract } from './provider-contract.js';
import { notify, outputs, startNotifier, type PluginFixture } from './support.js';

const OUTPUTS = ['id', 'dedupKey'];
const UNKNOWN_KEY = 'R0123456789abcdef0123456789abcde';

describeProviderContract({
  provider: 'pagerduty',
  outputs: OUTPUTS,
  body: { title: 'Nightly ETL failed', status: 'failed', fields: { Step: 'load' } },
  rateLimitRequeueMs: 60_000,
  async start() {
    const demo = await startPagerDutyDemo();
    return {
      env: demo.env,
      // An alert is what pages someone: a repeated trigger with the same dedup key adds to it.
      sent: () => demo.pd.alerts.length,
      rateLimitNextSend: () => demo.pd.throttleNext(),
      close: () => demo.close(),
    };
  },
  badCredential: {
    env: () => ({ PAGERDUTY_ROUTING_KEY: UNKNOWN_KEY }),
    secrets: [UNKNOWN_KEY],
    message:
      /^pagerduty: POST \/v2\/enqueue → 400 Bad Request: Event object is invalid: Invalid routing key: PagerDuty refused the event; if it names the routing key, the admin copies the integration key of the service's Events API v2 integration into PAGERDUTY_ROUTING_KEY$/,
  },
});

/** Trigger, acknowledge, then resolve one alert: the dedup key flows from the trigger step to the others. */
const lifecycle: WorkflowShape = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Workflow',
  metadata: { generateName: 'pagerduty-lifecycle-' },
  spec: {
    entrypoint: 'main',
    templates: [
      {
        name: 'main',
        steps: [
          [{ name: 'page', template: 'page' }],
          ...['acknowledge', 'resolve'].map((action) => [
            {
              name: action,
              template: 'follow-up',
              arguments: {
                parameters: [
                  { name: 'action', value: action },
                  { name: 'alert', value: '{{steps.page.outputs.parameters.dedupKey}}' },
                ],
              },
            },
          ]),
        ],
      },
      {
        name: 'page',
        outputs: { parameters: OUTPUTS.map((name) => ({ name, valueFrom: { supplied: {} } })) },
        plugin: {
          notify: {
            pagerduty: {
              service: 'payments',
              title: 'Settlement export failed',
              text: 'the bank rejected file 42',
              status: 'failed',
              component: 'exporter',
              fields: [{ name: 'Attempt', value: '3' }],
            },
          },
        },
      },
      {
        name: 'follow-up',
        inputs: { parameters: [{ name: 'action' }, { name: 'alert' }] },
        plugin: {
          notify: {
            pagerduty: {
              service: 'payments',
              action: '{{inputs.parameters.action}}',
              dedupKey: '{{inputs.parameters.alert}}',
            },
          },
        },
      },
    ],
  },
};

describe('pagerduty: trigger, acknowledge, resolve; severity from status; dedup keys', () => {
  let demo: PagerDutyDemo;
  let f: PluginFixture;
  beforeAll(async () => {
    demo = await startPagerDutyDemo();
    f = await startNotifier(demo.env);
  });
  afterAll(async () => {
    await f.close();
    await demo.close();
  });

  it('one alert, triggered then acknowledged then resolved, with the summary, severity and details', async () => {
    const result = await runWorkflow(lifecycle, {
      plugins: [{ name: 'notifier', url: f.h.url, token: f.h.token }],
      timeScale: 0.01,
    });
    expect(result.phase).toBe('Succeeded');
    const alert = demo.pd.alerts.at(-1)!;
    expect(alert).toMatchObject({
      status: 'resolved',
      log: ['trigger', 'acknowledge', 'resolve'],
      summary: 'Settlement export failed',
      severity: 'error',
      source: `argo-workflows/argo/${result.name}`,
      customDetails: { text: 'the bank rejected file 42', Attempt: '3', workflow: `argo/${result.name}` },
    });
    expect(alert.dedupKey).toMatch(/^argo-[0-9a-f]{40}$/);
    expect(result.node('resolve')?.message).toBe(`resolved alert ${alert.dedupKey} (service payments)`);
  });

  it("the author's dedup key groups triggers into one alert; after a resolve a trigger opens a new one", async () => {
    const trigger = (key: string) =>
      f.h.execute(
        notify('pagerduty', { text: 'disk full', dedupKey: 'disk-node-7', severity: 'critical', key }),
      );
    const before = demo.pd.alerts.length;
    expect(outputs((await trigger('a')).body)).toEqual({ id: 'disk-node-7', dedupKey: 'disk-node-7' });
    await trigger('b');
    expect(demo.pd.alerts.length - before).toBe(1);
    expect(demo.pd.alerts.at(-1)).toMatchObject({ severity: 'critical', log: ['trigger', 'trigger'] });
    await f.h.execute(notify('pagerduty', { action: 'resolve', dedupKey: 'disk-node-7' }));
    await trigger('c');
    expect(demo.pd.alerts.length - before).toBe(2);
  });

  it('cuts a summary past 1,024 characters, never in the middle of a character outside the BMP', async () => {
    for (const offset of [0, 1]) {
      const text = `${'.'.repeat(offset)}${'🔥'.repeat(600)}`;
      await f.h.execute(
        notify('pagerduty', { text, dedupKey: `long-summary-${offset}`, key: `cut-${offset}` }),
      );
      const { summary } = demo.pd.alerts.at(-1)!;
      expect([offset, summary.length <= 1024, summary]).toEqual([
        offset,
        true,
        expect.stringMatching(/^\.?(🔥)+…$/u),
      ]);
    }
  });

  it('acknowledge without a dedup key fails naming it; an unknown service names the variable', async () => {
    const run = async (body: Record<string, unknown>) =>
      (await f.h.execute(notify('pagerduty', body))).body.node?.message;
    expect(await run({ action: 'acknowledge' })).toBe(
      'notify: invalid config: pagerduty.dedupKey: is required to acknowledge an alert (the dedupKey output of the step that triggered it)',
    );
    expect(await run({ text: 'x', service: 'billing' })).toBe(
      'notify: invalid config: pagerduty.service: no PagerDuty service "billing" for namespace argo (known: default (no service), payments); the admin adds one with PAGERDUTY_BILLING_ROUTING_KEY',
    );
  });
});
