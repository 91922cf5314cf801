import { UpstreamError } from '@app/plugin-kit';
import { AirflowBlock } from './airflow-block.dto.js';
import { parseTime, type JobRun, type RunExtras, type RunRef } from '../../job/job-run.js';
import { airflowDagRunId } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { isJson, jsonBody, upstreamStatus } from '../upstream-reply.js';
import { AirflowClient, type AirflowApiVersion } from './airflow-client.js';
import type { AirflowConnection } from './airflow-settings.js';
import { mapAirflowState } from './airflow-states.js';

const FAILED_TASK_STATES = new Set(['failed', 'upstream_failed']);

/**
 * Airflow 2 (API v1) and 3 (API v2). Exactly one run per execution through a client-chosen `dag_run_id`
 * derived from the execution key: a second POST answers 409, and the plugin adopts the existing run.
 * A paused DAG fails the start (its run would stay queued), unless our run already exists.
 */
export class AirflowProvider implements DataJobProvider<AirflowBlock> {
  constructor(private readonly client: AirflowClient) {}

  async start({ block, key, workflow, signal }: StartRequest<AirflowBlock>): Promise<JobRun> {
    const version = await this.client.apiVersion(signal);
    const dagRunId = airflowDagRunId(workflow.name, key);
    const dag = jsonBody(
      await this.client.request({ method: 'GET', url: `/dags/${encodeURIComponent(block.dagId)}`, signal }),
      'airflow: dag',
    );
    if (dag.is_paused === true) {
      const existing = await this.find(block.dagId, dagRunId, version, signal);
      if (existing) return existing;
      throw UpstreamError.permanent(
        `airflow: DAG ${block.dagId} is paused, so a new run would stay queued until someone unpauses it; unpause the DAG and retry`,
      );
    }
    const body = {
      dag_run_id: dagRunId,
      conf: block.conf ?? {},
      note: block.note ?? `Triggered by Argo workflow ${workflow.namespace}/${workflow.name}`,
      // v2 requires the key (null: Airflow picks none); v1 takes it only when given.
      ...(version === 'v2'
        ? { logical_date: block.logicalDate ?? null }
        : block.logicalDate
          ? { logical_date: block.logicalDate }
          : {}),
    };
    try {
      const data = await this.client.request({
        method: 'POST',
        url: `/dags/${encodeURIComponent(block.dagId)}/dagRuns`,
        data: body,
        signal,
      });
      return this.toJobRun(block.dagId, jsonBody(data, 'airflow: dagRuns'), version);
    } catch (err) {
      if (upstreamStatus(err) !== 409) throw err;
      // Already started (by us before a restart, or a concurrent call): adopt it. Otherwise the conflict is
      // someone else's run on the same logical date.
      const existing = await this.find(block.dagId, dagRunId, version, signal);
      if (existing) return existing;
      throw UpstreamError.permanent(
        `${(err as Error).message} (another run of DAG ${block.dagId} holds this logical date)`,
      );
    }
  }

  async poll({ ref, signal }: PollRequest<AirflowBlock>): Promise<JobRun> {
    const version = await this.client.apiVersion(signal);
    const data = await this.client.request({ method: 'GET', url: this.runPath(ref), signal });
    return this.toJobRun(ref.dagId!, jsonBody(data, 'airflow: dagRun'), version);
  }

  /** Airflow has no cancel: marking the run failed stops its running tasks (DELETE would erase its history). */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    const version = await this.client.apiVersion(signal);
    await this.client.request({
      method: 'PATCH',
      url: this.runPath(ref),
      data: { state: 'failed' },
      ...(version === 'v2' && { params: { update_mask: 'state' } }),
      signal,
    });
  }

  /** On failure, which tasks failed (one request). */
  async finish(run: JobRun, { ref, signal }: PollRequest<AirflowBlock>): Promise<RunExtras> {
    if (run.state !== 'failed') return { outputs: {} };
    const data = await this.client.request({
      method: 'GET',
      url: `${this.runPath(ref)}/taskInstances`,
      params: { limit: 100 },
      signal,
    });
    const instances =
      isJson(data) && Array.isArray(data.task_instances) ? data.task_instances.filter(isJson) : [];
    const failed = instances
      .filter((t) => FAILED_TASK_STATES.has(String(t.state)))
      .map((t) => String(t.task_id));
    if (failed.length === 0) return { outputs: {} };
    return { outputs: { failedTasks: failed.join(',') }, detail: `failed tasks: ${failed.join(', ')}` };
  }

  private runPath(ref: RunRef): string {
    return `/dags/${encodeURIComponent(ref.dagId!)}/dagRuns/${encodeURIComponent(ref.runId)}`;
  }

  private async find(
    dagId: string,
    dagRunId: string,
    version: AirflowApiVersion,
    signal: AbortSignal,
  ): Promise<JobRun | undefined> {
    try {
      const data = await this.client.request({
        method: 'GET',
        url: this.runPath({ dagId, runId: dagRunId }),
        signal,
      });
      return this.toJobRun(dagId, jsonBody(data, 'airflow: dagRun'), version);
    } catch (err) {
      if (upstreamStatus(err) === 404) return undefined;
      throw err;
    }
  }

  private toJobRun(dagId: string, run: Record<string, unknown>, version: AirflowApiVersion): JobRun {
    const runId = String(run.dag_run_id);
    const mapped = mapAirflowState(run.state);
    const base = this.client.connection.url;
    const id = encodeURIComponent(runId);
    const dag = encodeURIComponent(dagId);
    return {
      ref: { runId, dagId },
      url: version === 'v1' ? `${base}/dags/${dag}/grid?dag_run_id=${id}` : `${base}/dags/${dag}/runs/${id}`,
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      startedAt: parseTime(run.start_date) ?? parseTime(run.queued_at),
      finishedAt: parseTime(run.end_date),
      raw: run,
    };
  }
}

export const airflowModule: DataJobProviderModule<AirflowConnection, AirflowBlock> = {
  block: AirflowBlock,
  create: (connection, { timeoutMs, redactor }) =>
    new AirflowProvider(new AirflowClient(connection, timeoutMs, redactor)),
};
