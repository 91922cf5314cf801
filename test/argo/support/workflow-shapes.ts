// Workflows around the scripted plugin's replies (libs/local-agent/test/reply-scenarios.ts): steps, a DAG, retries
// and exit handlers decide how they end. Each with the phase and message the real controller gave the workflow
// (test/argo/reply-scenarios.argo-spec.ts plays them under both agents; workflow-shapes.spec.ts holds the local
// agent to these outcomes without a stack).
import type { WorkflowShape } from '@app/local-agent';
import { rows } from '../../../libs/local-agent/test/reply-scenarios.js';
import { SCRIPTED_KEY } from './scripted-plugin/server.js';

const scripted = (name: string, scenario: string) => ({ name, plugin: { [SCRIPTED_KEY]: { scenario } } });

function workflow(spec: Record<string, unknown>): WorkflowShape {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { generateName: 'reply-' },
    spec,
  } as WorkflowShape;
}

/** One scenario's reply as the whole workflow. */
export const alone = (scenario: string): WorkflowShape =>
  workflow({ entrypoint: 'main', templates: [scripted('main', scenario)] });

const SUCCEEDS = rows.find((r) => r.phase === 'Succeeded' && typeof r.message === 'string')!.scenario;
const FAILS = '403 is fatal';
const ERRS = 'an Error reply';
const ok = scripted('ok', SUCCEEDS);
const no = scripted('no', FAILS);

export interface WorkflowShapeRow {
  label: string;
  workflow: WorkflowShape;
  /** The workflow's phase and message under the real controller. */
  phase: string;
  /** `{node:<suffix>}` stands for the id of the node named `<workflow name><suffix>`. */
  message?: string;
}

export const WORKFLOW_SHAPES: WorkflowShapeRow[] = [
  {
    label: 'steps: a failed step ends the workflow',
    workflow: workflow({
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [
            [{ name: 'a', template: 'ok' }],
            [{ name: 'b', template: 'no' }],
            [{ name: 'c', template: 'ok' }],
          ],
        },
        ok,
        no,
      ],
    }),
    phase: 'Failed',
    message: "child '{node:[1].b}' failed",
  },
  {
    label: 'steps: an Error node fails its steps',
    workflow: workflow({
      entrypoint: 'main',
      templates: [{ name: 'main', steps: [[{ name: 'a', template: 'err' }]] }, scripted('err', ERRS)],
    }),
    phase: 'Failed',
    message: "child '{node:[0].a}' failed",
  },
  {
    label: 'steps: continueOn.failed goes on',
    workflow: workflow({
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [
            [{ name: 'a', template: 'no', continueOn: { failed: true } }],
            [{ name: 'b', template: 'ok' }],
          ],
        },
        ok,
        no,
      ],
    }),
    phase: 'Succeeded',
  },
  {
    label: 'dag: a failed task, a task depending on it',
    workflow: workflow({
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          dag: {
            tasks: [
              { name: 'a', template: 'no' },
              { name: 'b', template: 'ok', depends: 'a' },
              { name: 'c', template: 'ok' },
            ],
          },
        },
        ok,
        no,
      ],
    }),
    phase: 'Failed',
  },
  {
    label: 'retryStrategy limit 2 over a Failed reply',
    workflow: workflow({
      entrypoint: 'main',
      templates: [{ ...scripted('main', FAILS), retryStrategy: { limit: 2 } }],
    }),
    phase: 'Failed',
    message: 'No more retries left',
  },

  {
    label: 'retryStrategy limit 2 over an Error reply (OnFailure: not retried)',
    workflow: workflow({
      entrypoint: 'main',
      templates: [{ ...scripted('main', ERRS), retryStrategy: { limit: 2 } }],
    }),
    phase: 'Error',
    message: 'broken',
  },
  {
    label: 'retryStrategy OnError over a Failed reply (not retried)',
    workflow: workflow({
      entrypoint: 'main',
      templates: [{ ...scripted('main', FAILS), retryStrategy: { limit: 2, retryPolicy: 'OnError' } }],
    }),
    phase: 'Failed',
    message: '403 Forbidden: forbidden',
  },
  {
    label: 'steps: withItems and a when that is false',
    workflow: workflow({
      entrypoint: 'main',
      templates: [
        {
          name: 'main',
          steps: [
            [{ name: 'each', template: 'ok', withItems: ['x', 'y'] }],
            [{ name: 'never', template: 'no', when: '1 == 2' }],
          ],
        },
        ok,
        no,
      ],
    }),
    phase: 'Succeeded',
  },
  {
    label: 'an exit handler that fails after a successful run',
    workflow: workflow({
      entrypoint: 'main',
      onExit: 'exit',
      templates: [scripted('main', SUCCEEDS), scripted('exit', FAILS)],
    }),
    phase: 'Failed',
    message: '403 Forbidden: forbidden',
  },
  {
    label: 'an exit handler after a failed run',
    workflow: workflow({
      entrypoint: 'main',
      onExit: 'exit',
      templates: [scripted('main', FAILS), scripted('exit', SUCCEEDS)],
    }),
    phase: 'Failed',
    message: '403 Forbidden: forbidden',
  },
];
