import type { JobState, MappedState } from '../job/job-run.js';
import { mapEmrServerlessState } from '../providers/emr-serverless/emr-serverless-states.js';
import { mapGlueState } from '../providers/glue/glue-states.js';
import { mapSagemakerPipelinesState } from '../providers/sagemaker-pipelines/sagemaker-pipelines-states.js';
import { mapStepFunctionsState } from '../providers/step-functions/step-functions-states.js';

interface StateRow {
  map: (status: unknown, ...reasons: unknown[]) => MappedState;
  /** Each normalised state and the upstream values that map to it. */
  states: Partial<Record<JobState, string[]>>;
  /** Reasons given with a failure, and the message they make. */
  failure: { status: string; reasons: string[]; message: string };
  /** Values the table does not know (an inherited property name among them). */
  unknown: unknown[];
}

const ROWS: Record<string, StateRow> = {
  'EMR Serverless': {
    map: mapEmrServerlessState,
    states: {
      queued: ['SUBMITTED', 'PENDING', 'SCHEDULED', 'QUEUED'],
      running: ['RUNNING', 'CANCELLING'],
      succeeded: ['SUCCESS'],
      failed: ['FAILED'],
      cancelled: ['CANCELLED'],
    },
    failure: {
      status: 'FAILED',
      reasons: ['Job failed, please check complete logs'],
      message: 'Job failed, please check complete logs',
    },
    unknown: ['DELETED', '', undefined, 'toString'],
  },
  Glue: {
    map: mapGlueState,
    states: {
      queued: ['WAITING', 'STARTING'],
      running: ['RUNNING', 'STOPPING'],
      succeeded: ['SUCCEEDED'],
      failed: ['FAILED', 'TIMEOUT', 'ERROR', 'EXPIRED'],
      cancelled: ['STOPPED'],
    },
    failure: {
      status: 'FAILED',
      reasons: ['AnalysisException: Path does not exist'],
      message: 'AnalysisException: Path does not exist',
    },
    unknown: ['QUEUED', '', undefined, '__proto__'],
  },
  'SageMaker Pipelines': {
    map: mapSagemakerPipelinesState,
    states: {
      running: ['Executing', 'Stopping'],
      succeeded: ['Succeeded'],
      failed: ['Failed'],
      cancelled: ['Stopped'],
    },
    failure: {
      status: 'Failed',
      reasons: ['Step Train failed: AlgorithmError'],
      message: 'Step Train failed: AlgorithmError',
    },
    unknown: ['Pending', '', undefined, 'constructor'],
  },
  'Step Functions': {
    map: mapStepFunctionsState,
    states: {
      running: ['RUNNING', 'PENDING_REDRIVE'],
      succeeded: ['SUCCEEDED'],
      failed: ['FAILED', 'TIMED_OUT'],
      cancelled: ['ABORTED'],
    },
    failure: {
      status: 'FAILED',
      reasons: ['States.TaskFailed', 'Lambda returned 500'],
      message: 'States.TaskFailed: Lambda returned 500',
    },
    unknown: ['PAUSED', '', undefined, 'constructor'],
  },
};

describe.each(Object.entries(ROWS))('%s states', (_backend, row) => {
  const pairs = Object.entries(row.states).flatMap(([state, values]) => values.map((v) => [v, state]));

  it.each(pairs)('%s → %s', (upstream, state) => {
    expect(row.map(upstream)).toEqual({ state, upstreamState: upstream });
  });

  it('makes the message of a failure from its reasons', () => {
    const { status, reasons, message } = row.failure;
    expect(row.map(status, ...reasons)).toEqual({ state: 'failed', upstreamState: status, message });
  });

  it.each(row.unknown)('keeps polling on %p, and says so', (status) => {
    expect(row.map(status)).toEqual({
      state: 'running',
      upstreamState: typeof status === 'string' && status !== '' ? status : 'unknown',
      unknown: true,
    });
  });
});
