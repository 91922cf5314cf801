import { UpstreamError } from '@app/plugin-kit';
import { parseTime, isTerminal, type JobRun, type RunRef } from '../../job/job-run.js';
import { dataprocBatchId, dataprocRequestId } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { GoogleRestApi } from '../google-rest-api.js';
import { isJson, jsonBody, upstreamStatus, type Json } from '../upstream-reply.js';
import { DataprocBlock } from './dataproc-block.dto.js';
import type { DataprocConnection } from './dataproc-settings.js';
import { mapDataprocState } from './dataproc-states.js';

/**
 * Dataproc Serverless batches. The batch id and the request id both come from the execution key: a repeated
 * create with the same request id returns the first one's operation, and one with the same batch id answers
 * 409, after which the batch is read and followed. A cancel cancels the batch's operation.
 */
export class DataprocProvider implements DataJobProvider<DataprocBlock> {
  private readonly api: GoogleRestApi;
  private readonly batches: string;

  constructor(
    private readonly connection: DataprocConnection,
    timeoutMs: number,
  ) {
    this.api = new GoogleRestApi('dataproc', connection, timeoutMs);
    this.batches = `/v1/projects/${connection.project}/locations/${connection.region}/batches`;
  }

  async start({ block, key, workflow, signal }: StartRequest<DataprocBlock>): Promise<JobRun> {
    const batchId = dataprocBatchId(key, block.name);
    const labels = isJson(block.batch.labels) ? block.batch.labels : {};
    const body = { ...block.batch, labels: { ...labels, 'argo-workflow': workflow.name.slice(0, 63) } };
    try {
      const { data } = await this.api.http.post(this.batches, body, {
        params: { batchId, requestId: dataprocRequestId(key) },
        ...(await this.api.auth(signal)),
      });
      const operation = jsonBody(data, 'dataproc: batches.create');
      if (typeof operation.name !== 'string')
        throw UpstreamError.permanent('dataproc: batches.create: the reply is not an operation');
      return {
        ref: { runId: batchId, operation: operation.name },
        url: this.consoleUrl(batchId),
        state: 'queued',
        upstreamState: 'PENDING',
        provisional: true,
      };
    } catch (err) {
      if (upstreamStatus(err) !== 409) throw err;
      return this.poll({ ref: { runId: batchId }, signal } as PollRequest<DataprocBlock>);
    }
  }

  async poll({ ref, signal }: PollRequest<DataprocBlock>): Promise<JobRun> {
    const { data } = await this.api.http.get(
      `${this.batches}/${encodeURIComponent(ref.runId)}`,
      await this.api.auth(signal),
    );
    return this.toJobRun(jsonBody(data, 'dataproc: batches.get'), ref);
  }

  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    const operation =
      ref.operation ?? (await this.poll({ ref, signal } as PollRequest<DataprocBlock>)).ref.operation;
    if (!operation) throw UpstreamError.permanent(`dataproc: batch ${ref.runId} has no operation to cancel`);
    try {
      await this.api.http.post(`/v1/${operation}:cancel`, {}, await this.api.auth(signal));
    } catch (err) {
      // The operation already ended (FAILED_PRECONDITION): nothing left to cancel.
      if (upstreamStatus(err) !== 400) throw err;
    }
  }

  private consoleUrl(batchId: string): string {
    const { region, project } = this.connection;
    return `https://console.cloud.google.com/dataproc/batches/${region}/${encodeURIComponent(batchId)}/monitoring?project=${encodeURIComponent(project)}`;
  }

  private toJobRun(batch: Json, ref: RunRef): JobRun {
    const mapped = mapDataprocState(batch.state);
    const operation = typeof batch.operation === 'string' ? batch.operation : ref.operation;
    const runtime = isJson(batch.runtimeInfo) ? batch.runtimeInfo : {};
    return {
      ref: { runId: ref.runId, ...(operation && { operation }) },
      url: this.consoleUrl(ref.runId),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message:
        typeof batch.stateMessage === 'string' && batch.stateMessage !== '' ? batch.stateMessage : undefined,
      startedAt: parseTime(batch.createTime),
      finishedAt: isTerminal(mapped.state) ? parseTime(batch.stateTime) : undefined,
      extras: typeof runtime.outputUri === 'string' ? { outputUri: runtime.outputUri } : undefined,
    };
  }
}

export const dataprocModule: DataJobProviderModule<DataprocConnection, DataprocBlock> = {
  block: DataprocBlock,
  create: (connection, { timeoutMs }) => new DataprocProvider(connection, timeoutMs),
};
