// The upstream-side identity of an execution, derived from the kit's execution key (sha256 hex of workflow
// uid, template name, plugin body and inputs). Deterministic, so a restarted sidecar derives the same names
// and finds or re-issues the same run.

/** Databricks `idempotency_token`: at most 64 characters; the same token always returns the same run. */
export function databricksIdempotencyToken(key: string): string {
  return key.slice(0, 64);
}

const AIRFLOW_RUN_ID_CHARS = /[^A-Za-z0-9_.~:+-]/g;

/**
 * Airflow `dag_run_id`: `argo__<workflow>__<key>`, within the default allowed pattern and far below the
 * 250-character limit. The workflow name is only there for people reading the Airflow UI.
 */
export function airflowDagRunId(workflowName: string, key: string): string {
  const workflow = workflowName.replace(AIRFLOW_RUN_ID_CHARS, '-').slice(0, 60);
  return `argo__${workflow}__${key.slice(0, 32)}`;
}

/** How many recent runs of a dbt Cloud job are searched for ours before starting one. */
export const DBT_LOOKUP_WINDOW = 20;

/** The marker that identifies our dbt Cloud run in `trigger.cause`. */
export function dbtCauseMarker(key: string): string {
  return `argo K=${key.slice(0, 32)}`;
}

/** dbt Cloud `cause` (required, at most 255 characters): the author's text, then the marker, never cut. */
export function dbtCause(
  key: string,
  authorCause: string | undefined,
  workflow: { namespace: string; name: string },
): string {
  const marker = ` [${dbtCauseMarker(key)}]`;
  const human = authorCause ?? `Argo workflow ${workflow.namespace}/${workflow.name}`;
  return `${human.slice(0, 255 - marker.length)}${marker}`;
}

/** Livy batch `name`: unique among the sessions Livy holds, never all digits (that would be read as an id). */
export function livyBatchName(key: string, prefix = 'argo'): string {
  return `${prefix}-${key.slice(0, 24)}`;
}

/**
 * Step Functions execution `name` (at most 80 of A-Z a-z 0-9 _ -): a Standard workflow starts one execution per
 * name, so a repeated StartExecution returns it or is refused with ExecutionAlreadyExists.
 */
export function stepFunctionsExecutionName(key: string, prefix = 'argo'): string {
  return `${prefix}-${key.slice(0, 32)}`;
}

/** EMR Serverless `clientToken` (at most 64 characters): StartJobRun with a token it has seen returns that job run. */
export function emrServerlessClientToken(key: string): string {
  return key.slice(0, 64);
}

/** The tag that marks the AWS Batch job of an execution (Batch has no idempotency token). */
export const BATCH_KEY_TAG = 'argo-execution-key';

/** AWS Batch `jobName` (at most 128 of A-Z a-z 0-9 _ -): looked up with ListJobs before a job is submitted. */
export function batchJobName(key: string, prefix = 'argo'): string {
  return `${prefix}-${key.slice(0, 32)}`;
}

/**
 * The job argument that marks the Glue run of an execution (Glue has no idempotency token); Glue hands it to the
 * script like any other argument, and getResolvedOptions ignores arguments it is not asked for.
 */
export const GLUE_KEY_ARGUMENT = '--argo-execution-key';

/** SageMaker `ClientRequestToken` (32 to 128 characters): StartPipelineExecution with a token it has seen returns that execution. */
export function sagemakerClientRequestToken(key: string): string {
  return key.slice(0, 64);
}

/**
 * Snowflake `requestId`: a UUID (the API refuses anything else) made of the key's first 32 hex digits, with the
 * version and variant digits of a random UUID so that it is one.
 */
export function snowflakeRequestId(key: string): string {
  const h = key.slice(0, 32).split('');
  h[12] = '4';
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const hex = h.join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Dataproc `batchId` (4-63 of `a-z0-9-`, a letter first): `<prefix>-<24 hex>`; `requestId` the first 40 hex. */
export function dataprocBatchId(key: string, prefix = 'argo'): string {
  return `${prefix}-${key.slice(0, 24)}`;
}
export function dataprocRequestId(key: string): string {
  return key.slice(0, 40);
}

/**
 * The env variable that marks the Cloud Run execution of an execution key (a run has no idempotency token): set
 * through the run's container overrides, it shows in the execution's task template, where the job's executions
 * are searched for it before a run.
 */
export const CLOUD_RUN_KEY_ENV = 'ARGO_EXECUTION_KEY';

/** Vertex AI `pipelineJobId` (at most 128 of `a-z0-9-`): `<prefix>-<32 hex>`; a repeat answers 409 ALREADY_EXISTS. */
export function vertexPipelineJobId(key: string, prefix = 'argo'): string {
  return `${prefix}-${key.slice(0, 32)}`;
}

/**
 * The pipeline parameter that carries the execution key to Azure Data Factory (a run has no idempotency token;
 * `referencePipelineRunId` only reruns another run): a run's `parameters` show it, where queryPipelineRuns
 * finds it before a run is created.
 */
export const DATA_FACTORY_KEY_PARAMETER = 'argoExecutionKey';
