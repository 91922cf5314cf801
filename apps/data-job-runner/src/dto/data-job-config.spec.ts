// The DTOs' @Type reads decorator metadata; in a sidecar the plugin runtime loads the polyfill before them.
import 'reflect-metadata';
import { validatePluginConfig } from '@app/plugin-kit/config/plugin-config.js';
import { PluginConfigError } from '@app/plugin-kit';
import { dataJobConfigClass } from './data-job-config.dto.js';
import { PROVIDERS } from '../providers/index.js';

/** The providers, as the body's "exactly one provider block" names them: the table's keys in its order. */
const KEYS = PROVIDERS.keys.join(', ');

// The body class as the module builds it: the settings and each provider's block, from the table.
const DataJobConfig = await dataJobConfigClass();
const validate = (body: unknown) => validatePluginConfig(DataJobConfig, body);

function problemsOf(body: unknown): string[] {
  const result = validate(body);
  if (!result.ok) return result.problems;
  try {
    PROVIDERS.pickBlock(result.config);
    return [];
  } catch (err) {
    if (!(err instanceof PluginConfigError)) throw err;
    return [err.message];
  }
}

describe('DataJobConfig', () => {
  it('accepts one block per provider with defaults filled in', () => {
    const result = validate({
      databricks: { jobId: '123', jobParameters: { date: '2024-01-01', n: 5, full: true } },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.wait).toBe(true);
    expect(result.config.pollInterval).toBe('30s');
    expect(result.config.databricks?.jobId).toBe(123);
    expect(result.config.databricks?.successWithFailures).toBe('succeeded');
    for (const body of [
      {
        airflow: {
          dagId: 'ingest.daily',
          conf: { nested: { a: [1, 2] } },
          logicalDate: '2024-01-01T00:00:00Z',
        },
      },
      { dbtCloud: { jobId: 7, stepsOverride: ['dbt build -s x'], gitBranch: 'main' } },
      {
        livy: { file: 's3://b/app.py', args: ['--d', 1], conf: { 'spark.executor.memory': '2g' } },
        wait: 'false',
        pollInterval: '1m',
      },
      {
        databricks: {
          submit: { runName: 'once', tasks: [{ task_key: 't', notebook_task: { notebook_path: '/x' } }] },
        },
      },
    ]) {
      expect(problemsOf(body)).toEqual([]);
    }
  });

  it.each([
    [{}, `body: exactly one provider block is required (${KEYS}); got none`],
    [
      { databricks: { jobId: 1 }, airflow: { dagId: 'd' } },
      `body: exactly one provider block is required (${KEYS}); got databricks and airflow`,
    ],
    [{ databricks: {} }, 'databricks: set jobId (run an existing job) or submit (a one-time run)'],
    [
      { databricks: { jobId: 1, submit: { tasks: [{}] } } },
      'databricks: set either jobId or submit, not both',
    ],
    [
      { databricks: { submit: { tasks: [{}] }, notebookParams: {} } },
      'databricks.notebookParams: not allowed with submit (parameters go into the submitted tasks)',
    ],
    [
      { databricks: { jobId: 1, jobParameters: {}, pythonParams: [] } },
      'databricks: set at most one of jobParameters, notebookParams, pythonParams (got jobParameters, pythonParams)',
    ],
    [{ databricks: { jobId: -4 } }, 'databricks.jobId: must be a positive integer'],
    [
      { databricks: { jobId: 1, jobParameters: { a: { b: 1 } } } },
      'databricks.jobParameters: must be an object of strings, numbers or booleans',
    ],
    [{ databricks: { submit: { tasks: [] } } }, 'databricks.submit.tasks: should not be empty'],
    [
      { databricks: { jobId: 1, successWithFailures: 'maybe' } },
      'databricks.successWithFailures: must be one of the following values: succeeded, failed',
    ],
    [{ airflow: { dagId: '../x' } }, 'airflow.dagId: must be a DAG id: letters, digits, "_", "." and "-"'],
    [{ airflow: { dagId: '..' } }, 'airflow.dagId: must be a DAG id: letters, digits, "_", "." and "-"'],
    [{ airflow: { dagId: 'd', conf: [1] } }, 'airflow.conf: must be an object'],
    [
      { airflow: { dagId: 'd', logicalDate: '2024-01-01T00:00:00' } },
      'airflow.logicalDate: must include a timezone (Z or ±hh:mm)',
    ],
    [{ airflow: { dagId: 'd', dagRunId: 'mine' } }, 'airflow.dagRunId: unknown field'],
    // A block's own check is its class's, never a field of the body.
    [{ databricks: { jobId: 1, problems: [] } }, 'databricks.problems: unknown field'],
    [{ dbtCloud: { jobId: 'abc' } }, 'dbtCloud.jobId: must be a positive integer'],
    [{ dbtCloud: { jobId: 1, stepsOverride: 'dbt run' } }, 'dbtCloud.stepsOverride: must be an array'],
    [{ livy: { args: [] } }, 'livy.file: must be a string'],
    [
      { livy: { file: 'x', name: '123' } },
      'livy.name: must start with a letter and use letters, digits, "_", "." or "-" (at most 64)',
    ],
    [
      { livy: { file: 'x' }, pollInterval: '10m' },
      'pollInterval: must be at most 5m with livy (Livy forgets finished batches after 10 minutes by default)',
    ],
    [
      { livy: { file: 'x' }, pollInterval: 'soon' },
      'pollInterval: must be a Go duration such as 30s or 1m30s between 1s and 1h0m0s',
    ],
    [
      { livy: { file: 'x' }, timeout: '0s' },
      'timeout: must be a Go duration such as 30s or 1m30s between 1s and 720h0m0s',
    ],
    [{ livy: { file: 'x' }, wait: 'sometimes' }, 'wait: must be a boolean value'],
    [
      { livy: { file: 'x' }, connection: '../etc' },
      'connection: must be a connection name: letters, digits, "_" or "-"',
    ],
    [{ livy: { file: 'x' }, host: 'https://evil.example' }, 'host: unknown field'],
  ])('%j → %s', (body, problem) => {
    expect(problemsOf(body)).toContain(problem);
  });
});
