import { UpstreamError } from '@app/plugin-kit';
import { parseTime, isTerminal, type JobRun, type RunRef } from '../../job/job-run.js';
import { CLOUD_RUN_KEY_ENV } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { GoogleRestApi } from '../google-rest-api.js';
import { isJson, jsonBody, upstreamStatus, type Json } from '../upstream-reply.js';
import { CloudRunBlock } from './cloud-run-block.dto.js';
import type { CloudRunConnection } from './cloud-run-settings.js';
import { mapCloudRunExecution } from './cloud-run-states.js';

/** executions.list pages (of 100, newest first) searched for the execution of a key before a run. */
const LOOKUP_PAGES = 3;

const isKeyEnv = (e: unknown): boolean => isJson(e) && e.name === CLOUD_RUN_KEY_ENV;

/** The run's overrides with the key in every container override's env (one for the job's container if none). */
export function overridesWithKey(overrides: Json | undefined, key: string): Json {
  const given = Array.isArray(overrides?.containerOverrides) ? overrides.containerOverrides : [];
  const containers = (given.length > 0 ? given : [{}]).map((c: unknown) => {
    const container = isJson(c) ? c : {};
    const env = Array.isArray(container.env) ? container.env.filter((e) => !isKeyEnv(e)) : [];
    return { ...container, env: [...env, { name: CLOUD_RUN_KEY_ENV, value: key }] };
  });
  return { ...overrides, containerOverrides: containers };
}

function carriesKey(execution: Json, key: string): boolean {
  const template = isJson(execution.template) ? execution.template : {};
  const containers = Array.isArray(template.containers) ? template.containers.filter(isJson) : [];
  return containers.some(
    (c) => Array.isArray(c.env) && c.env.some((e) => isKeyEnv(e) && (e as Json).value === key),
  );
}

const shortName = (name: unknown): string | undefined =>
  typeof name === 'string' ? name.split('/').at(-1) : undefined;

/**
 * Cloud Run jobs (Admin API v2). A run has no idempotency token, so it carries the execution key as the env
 * override `ARGO_EXECUTION_KEY`: before running, the job's recent executions are searched for it, and a match is
 * followed instead of running the job again. A cancel cancels the execution.
 */
export class CloudRunProvider implements DataJobProvider<CloudRunBlock> {
  private readonly api: GoogleRestApi;
  private readonly jobs: string;

  constructor(
    private readonly connection: CloudRunConnection,
    timeoutMs: number,
  ) {
    this.api = new GoogleRestApi('cloudRun', connection, timeoutMs);
    this.jobs = `/v2/projects/${connection.project}/locations/${connection.region}/jobs`;
  }

  async start({ block, key, signal }: StartRequest<CloudRunBlock>): Promise<JobRun> {
    const found = await this.find(block.job, key, signal);
    if (found) return this.toJobRun(found, { runId: shortName(found.name)!, jobName: block.job });
    const { data } = await this.api.http.post(
      `${this.jobs}/${encodeURIComponent(block.job)}:run`,
      { overrides: overridesWithKey(block.overrides, key) },
      await this.api.auth(signal),
    );
    const operation = jsonBody(data, 'cloudRun: jobs.run');
    const execution = isJson(operation.metadata) ? operation.metadata : {};
    const runId = shortName(execution.name);
    if (!runId) throw UpstreamError.permanent('cloudRun: jobs.run: the operation names no execution');
    return {
      ref: { runId, jobName: block.job },
      url: this.consoleUrl(runId),
      state: 'queued',
      upstreamState: 'CONDITION_PENDING',
      provisional: true,
    };
  }

  async poll({ ref, signal }: PollRequest<CloudRunBlock>): Promise<JobRun> {
    const { data } = await this.api.http.get(this.execution(ref), await this.api.auth(signal));
    return this.toJobRun(jsonBody(data, 'cloudRun: executions.get'), ref);
  }

  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    try {
      await this.api.http.post(`${this.execution(ref)}:cancel`, {}, await this.api.auth(signal));
    } catch (err) {
      // The execution already ended (FAILED_PRECONDITION): nothing left to cancel.
      if (upstreamStatus(err) !== 400) throw err;
    }
  }

  private async find(job: string, key: string, signal: AbortSignal): Promise<Json | undefined> {
    let pageToken: string | undefined;
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const { data } = await this.api.http.get(`${this.jobs}/${encodeURIComponent(job)}/executions`, {
        ...(await this.api.auth(signal)),
        params: { pageSize: 100, ...(pageToken && { pageToken }) },
      });
      const listed = jsonBody(data, 'cloudRun: executions.list');
      const executions = Array.isArray(listed.executions) ? listed.executions.filter(isJson) : [];
      const ours = executions.find((e) => carriesKey(e, key) && shortName(e.name));
      if (ours) return ours;
      pageToken = typeof listed.nextPageToken === 'string' ? listed.nextPageToken : undefined;
      if (!pageToken) return undefined;
    }
    return undefined;
  }

  private execution(ref: RunRef): string {
    return `${this.jobs}/${encodeURIComponent(ref.jobName!)}/executions/${encodeURIComponent(ref.runId)}`;
  }

  private consoleUrl(runId: string): string {
    const { region, project } = this.connection;
    return `https://console.cloud.google.com/run/jobs/executions/details/${region}/${encodeURIComponent(runId)}/tasks?project=${encodeURIComponent(project)}`;
  }

  private toJobRun(execution: Json, ref: RunRef): JobRun {
    const mapped = mapCloudRunExecution(execution);
    return {
      ref,
      url: this.consoleUrl(ref.runId),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: mapped.message,
      startedAt: parseTime(execution.startTime ?? execution.createTime),
      finishedAt: isTerminal(mapped.state) ? parseTime(execution.completionTime) : undefined,
    };
  }
}

export const cloudRunModule: DataJobProviderModule<CloudRunConnection, CloudRunBlock> = {
  block: CloudRunBlock,
  create: (connection, { timeoutMs }) => new CloudRunProvider(connection, timeoutMs),
};
