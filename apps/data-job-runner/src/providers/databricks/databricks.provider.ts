import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { DatabricksConnection } from './databricks-settings.js';
import { DatabricksBlock } from './databricks-block.dto.js';
import { stringList, stringMap } from '../../dto/validators.js';
import { isTerminal, parseTime, type JobRun, type RunExtras, type RunRef } from '../../job/job-run.js';
import { databricksIdempotencyToken } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { defined, isJson, jsonBody } from '../upstream-reply.js';
import {
  mapDatabricksState,
  type DatabricksRunState,
  type DatabricksRunStatus,
} from './databricks-states.js';

const JOBS = '/api/2.2/jobs';
/** Error codes Databricks documents as "retry later", whatever the HTTP status. */
const TRANSIENT_CODES = new Set(['REQUEST_LIMIT_EXCEEDED', 'TEMPORARILY_UNAVAILABLE']);
const MAX_NOTEBOOK_OUTPUT = 4000;

/** `Job 123 does not exist. (INVALID_PARAMETER_VALUE)` from `{error_code, message}`. */
function describe(response: AxiosResponse): string | undefined {
  const d = response.data;
  if (!isJson(d) || typeof d.message !== 'string') return undefined;
  return typeof d.error_code === 'string' ? `${d.message} (${d.error_code})` : d.message;
}

/**
 * Databricks Jobs API 2.2. Exactly one run per execution through `idempotency_token` (the execution key):
 * Databricks returns the existing run for a token it has seen, so a restarted sidecar simply starts again.
 */
export class DatabricksProvider implements DataJobProvider<DatabricksBlock> {
  private readonly http: AxiosInstance;

  constructor(connection: DatabricksConnection, timeoutMs: number) {
    this.http = createUpstreamClient({
      upstream: 'databricks',
      baseURL: connection.host,
      headers: { Authorization: `Bearer ${connection.token}` },
      timeoutMs,
      describe,
      transient: (r) => isJson(r.data) && TRANSIENT_CODES.has(String(r.data.error_code)),
    });
  }

  async start({ block, key, workflow, signal }: StartRequest<DatabricksBlock>): Promise<JobRun> {
    const idempotency_token = databricksIdempotencyToken(key);
    const { data } = block.submit
      ? await this.http.post(
          `${JOBS}/runs/submit`,
          defined({
            run_name: block.submit.runName ?? `argo ${workflow.namespace}/${workflow.name}`,
            tasks: block.submit.tasks,
            timeout_seconds: block.submit.timeoutSeconds,
            idempotency_token,
          }),
          { signal },
        )
      : await this.http.post(
          `${JOBS}/run-now`,
          defined({
            job_id: block.jobId,
            idempotency_token,
            job_parameters: stringMap(block.jobParameters),
            notebook_params: stringMap(block.notebookParams),
            python_params: stringList(block.pythonParams),
          }),
          { signal },
        );
    const runId = jsonBody(data, 'databricks: start').run_id;
    if (typeof runId !== 'number') throw UpstreamError.permanent('databricks: the start reply has no run_id');
    // run-now answers with the id only: the handler polls once for the state and the run page.
    return { ref: { runId: String(runId) }, state: 'queued', upstreamState: 'SUBMITTED', provisional: true };
  }

  async poll({ ref, block, signal }: PollRequest<DatabricksBlock>): Promise<JobRun> {
    const { data } = await this.http.get(`${JOBS}/runs/get`, { params: { run_id: ref.runId }, signal });
    const run = jsonBody(data, 'databricks: runs/get');
    const mapped = mapDatabricksState(
      isJson(run.state) ? (run.state as DatabricksRunState) : undefined,
      isJson(run.status) ? (run.status as DatabricksRunStatus) : undefined,
      block.successWithFailures,
    );
    return {
      ref,
      url: typeof run.run_page_url === 'string' ? run.run_page_url : undefined,
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      message: mapped.message,
      unknownState: mapped.unknown,
      startedAt: parseTime(run.start_time),
      finishedAt: parseTime(run.end_time),
      raw: run,
    };
  }

  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    await this.http.post(`${JOBS}/runs/cancel`, { run_id: Number(ref.runId) }, { signal });
  }

  /**
   * A single notebook task: its exit value (`dbutils.notebook.exit`) or, on failure, its error. That takes a
   * second request, so it is made only when the template declares `notebookOutput` or the run failed (the
   * error text is worth it); a succeeded run nobody reads the output of costs one request per poll.
   */
  async finish(run: JobRun, { signal, declaredOutputs }: PollRequest<DatabricksBlock>): Promise<RunExtras> {
    const tasks = isJson(run.raw) && Array.isArray(run.raw.tasks) ? run.raw.tasks.filter(isJson) : [];
    const task = tasks.length === 1 ? tasks[0] : undefined;
    const wanted = declaredOutputs.has('notebookOutput') || run.state !== 'succeeded';
    if (!wanted || !isTerminal(run.state) || !task?.notebook_task || typeof task.run_id !== 'number')
      return { outputs: {} };
    const { data } = await this.http.get(`${JOBS}/runs/get-output`, {
      params: { run_id: task.run_id },
      signal,
    });
    const output = jsonBody(data, 'databricks: runs/get-output');
    const notebook = isJson(output.notebook_output) ? output.notebook_output : {};
    const outputs: Record<string, string> = {};
    if (typeof notebook.result === 'string')
      outputs.notebookOutput = clipMasked(notebook.result, MAX_NOTEBOOK_OUTPUT);
    const error =
      typeof output.error === 'string' && output.error !== '' ? clipMasked(output.error, 500) : undefined;
    return { outputs, detail: error };
  }
}

export const databricksModule: DataJobProviderModule<DatabricksConnection, DatabricksBlock> = {
  block: DatabricksBlock,
  create: (connection, { timeoutMs }) => new DatabricksProvider(connection, timeoutMs),
};
