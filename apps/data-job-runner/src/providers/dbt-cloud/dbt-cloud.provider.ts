import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { DbtCloudConnection } from './dbt-cloud-settings.js';
import { DbtCloudBlock } from './dbt-cloud-block.dto.js';
import { parseTime, type JobRun, type RunRef } from '../../job/job-run.js';
import { DBT_LOOKUP_WINDOW, dbtCause, dbtCauseMarker } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { defined, isJson, type Json } from '../upstream-reply.js';
import { mapDbtCloudStatus } from './dbt-cloud-states.js';

/** The envelope's `status.user_message` (+ field errors in `data`). */
function describe(response: AxiosResponse): string | undefined {
  const d = response.data;
  if (!isJson(d) || !isJson(d.status)) return undefined;
  const message = [d.status.user_message, d.status.developer_message]
    .filter((m) => typeof m === 'string' && m !== '')
    .join(' ');
  const fields = isJson(d.data)
    ? Object.entries(d.data)
        .map(
          ([field, problems]) =>
            `${field}: ${Array.isArray(problems) ? problems.join(' ') : String(problems)}`,
        )
        .join('; ')
    : '';
  return [message, fields].filter(Boolean).join(' ') || undefined;
}

/** `data` of a successful envelope. */
function dataOf(body: unknown, what: string): unknown {
  if (!isJson(body) || !('data' in body))
    throw UpstreamError.permanent(`dbt Cloud: ${what}: the reply is not a dbt Cloud envelope`);
  return body.data;
}

/**
 * dbt Cloud API v2. It has no idempotency key: the run's `cause` carries a marker derived from the execution
 * key, and before starting, the most recent runs of the job are searched for it (a restarted sidecar adopts
 * its run). Runs of one job queue behind each other, so a duplicate outside the window costs time, not data.
 */
export class DbtCloudProvider implements DataJobProvider<DbtCloudBlock> {
  private readonly http: AxiosInstance;
  private readonly base: string;

  constructor(connection: DbtCloudConnection, timeoutMs: number) {
    this.base = `/api/v2/accounts/${connection.accountId}`;
    this.http = createUpstreamClient({
      upstream: 'dbt Cloud',
      baseURL: connection.url,
      headers: { Authorization: `Token ${connection.token}`, Accept: 'application/json' },
      timeoutMs,
      describe,
    });
  }

  async start({ block, key, workflow, signal }: StartRequest<DbtCloudBlock>): Promise<JobRun> {
    const existing = await this.findOurs(block.jobId, dbtCauseMarker(key), signal);
    if (existing) return this.toJobRun(existing);
    const body = defined({
      cause: dbtCause(key, block.cause, workflow),
      steps_override: block.stepsOverride,
      git_branch: block.gitBranch,
      git_sha: block.gitSha,
    });
    const { data } = await this.http.post(`${this.base}/jobs/${block.jobId}/run/`, body, { signal });
    return this.toJobRun(this.runOf(dataOf(data, 'jobs/run')));
  }

  async poll({ ref, signal }: PollRequest<DbtCloudBlock>): Promise<JobRun> {
    const { data } = await this.http.get(`${this.base}/runs/${encodeURIComponent(ref.runId)}/`, { signal });
    return this.toJobRun(this.runOf(dataOf(data, 'runs')));
  }

  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    await this.http.post(`${this.base}/runs/${encodeURIComponent(ref.runId)}/cancel/`, undefined, { signal });
  }

  private async findOurs(jobId: number, marker: string, signal: AbortSignal): Promise<Json | undefined> {
    const { data } = await this.http.get(`${this.base}/runs/`, {
      params: {
        job_definition_id: jobId,
        order_by: '-id',
        limit: DBT_LOOKUP_WINDOW,
        include_related: '["trigger"]',
      },
      signal,
    });
    const runs = dataOf(data, 'runs');
    if (!Array.isArray(runs)) throw UpstreamError.permanent('dbt Cloud: runs: the reply has no run list');
    return runs
      .filter(isJson)
      .find(
        (r) => isJson(r.trigger) && typeof r.trigger.cause === 'string' && r.trigger.cause.includes(marker),
      );
  }

  private runOf(data: unknown): Json {
    if (!isJson(data) || data.id === undefined)
      throw UpstreamError.permanent('dbt Cloud: the reply has no run');
    return data;
  }

  private toJobRun(run: Json): JobRun {
    const mapped = mapDbtCloudStatus(run.status, run.status_humanized);
    return {
      ref: { runId: String(run.id) },
      url: typeof run.href === 'string' ? run.href : undefined,
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message:
        typeof run.status_message === 'string' && run.status_message !== '' ? run.status_message : undefined,
      startedAt: parseTime(run.started_at) ?? parseTime(run.created_at),
      finishedAt: parseTime(run.finished_at),
      raw: run,
    };
  }
}

export const dbtCloudModule: DataJobProviderModule<DbtCloudConnection, DbtCloudBlock> = {
  block: DbtCloudBlock,
  create: (connection, { timeoutMs }) => new DbtCloudProvider(connection, timeoutMs),
};
