import { parseTime, isTerminal, type JobRun, type RunRef } from '../../job/job-run.js';
import { vertexPipelineJobId } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { GoogleRestApi } from '../google-rest-api.js';
import { isJson, jsonBody, upstreamStatus, type Json } from '../upstream-reply.js';
import { VertexPipelinesBlock } from './vertex-pipelines-block.dto.js';
import type { VertexPipelinesConnection } from './vertex-pipelines-settings.js';
import { mapVertexPipelineState } from './vertex-pipelines-states.js';

/**
 * Vertex AI Pipelines (API v1). The pipeline job id comes from the execution key: a repeated create answers
 * 409 ALREADY_EXISTS, after which the job is read and followed. A cancel cancels the pipeline job.
 */
export class VertexPipelinesProvider implements DataJobProvider<VertexPipelinesBlock> {
  private readonly api: GoogleRestApi;
  private readonly jobs: string;

  constructor(
    private readonly connection: VertexPipelinesConnection,
    timeoutMs: number,
  ) {
    this.api = new GoogleRestApi('vertexPipelines', connection, timeoutMs);
    this.jobs = `/v1/projects/${connection.project}/locations/${connection.region}/pipelineJobs`;
  }

  async start({ block, key, workflow, signal }: StartRequest<VertexPipelinesBlock>): Promise<JobRun> {
    const runId = vertexPipelineJobId(key, block.name);
    const labels = isJson(block.pipelineJob.labels) ? block.pipelineJob.labels : {};
    const body = {
      ...block.pipelineJob,
      labels: { ...labels, 'argo-workflow': workflow.name.slice(0, 63) },
    };
    try {
      const { data } = await this.api.http.post(this.jobs, body, {
        params: { pipelineJobId: runId },
        ...(await this.api.auth(signal)),
      });
      return this.toJobRun(jsonBody(data, 'vertexPipelines: pipelineJobs.create'), { runId });
    } catch (err) {
      if (upstreamStatus(err) !== 409) throw err;
      return this.poll({ ref: { runId }, signal } as PollRequest<VertexPipelinesBlock>);
    }
  }

  async poll({ ref, signal }: PollRequest<VertexPipelinesBlock>): Promise<JobRun> {
    const { data } = await this.api.http.get(this.job(ref), await this.api.auth(signal));
    return this.toJobRun(jsonBody(data, 'vertexPipelines: pipelineJobs.get'), ref);
  }

  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    try {
      await this.api.http.post(`${this.job(ref)}:cancel`, {}, await this.api.auth(signal));
    } catch (err) {
      // The pipeline job already ended (FAILED_PRECONDITION): nothing left to cancel.
      if (upstreamStatus(err) !== 400) throw err;
    }
  }

  private job(ref: RunRef): string {
    return `${this.jobs}/${encodeURIComponent(ref.runId)}`;
  }

  private consoleUrl(runId: string): string {
    const { region, project } = this.connection;
    return `https://console.cloud.google.com/vertex-ai/locations/${region}/pipelines/runs/${encodeURIComponent(runId)}?project=${encodeURIComponent(project)}`;
  }

  private toJobRun(job: Json, ref: RunRef): JobRun {
    const mapped = mapVertexPipelineState(job.state);
    const error = isJson(job.error) && typeof job.error.message === 'string' ? job.error.message : undefined;
    return {
      ref,
      url: this.consoleUrl(ref.runId),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: error !== '' ? error : undefined,
      startedAt: parseTime(job.startTime ?? job.createTime),
      finishedAt: isTerminal(mapped.state) ? parseTime(job.endTime) : undefined,
    };
  }
}

export const vertexPipelinesModule: DataJobProviderModule<VertexPipelinesConnection, VertexPipelinesBlock> = {
  block: VertexPipelinesBlock,
  create: (connection, { timeoutMs }) => new VertexPipelinesProvider(connection, timeoutMs),
};
