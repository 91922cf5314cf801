import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { parseTime, isTerminal, type JobRun, type RunRef } from '../../job/job-run.js';
import { dataprocBatchId, dataprocRequestId } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { GoogleAccessTokens } from '../google-credentials.js';
import { isJson, jsonBody, upstreamStatus, type Json } from '../upstream-reply.js';
import type { DataprocBlock } from './dataproc-block.dto.js';
import type { DataprocConnection } from './dataproc-settings.js';
import { mapDataprocState } from './dataproc-states.js';

/** Google's error body: `{error: {code, message, status}}`. */
export function describeGoogleError(response: AxiosResponse): string | undefined {
  const e = isJson(response.data) ? response.data.error : undefined;
  if (!isJson(e) || typeof e.message !== 'string') return undefined;
  return typeof e.status === 'string' ? `${e.message} (${e.status})` : e.message;
}

/**
 * Dataproc Serverless batches. The batch id and the request id both come from the execution key: a repeated
 * create with the same request id returns the first one's operation, and one with the same batch id answers
 * 409, after which the batch is read and followed. A cancel cancels the batch's operation.
 */
export class DataprocProvider implements DataJobProvider<DataprocBlock> {
  private readonly http: AxiosInstance;
  private readonly tokens: GoogleAccessTokens;
  private readonly batches: string;

  constructor(
    private readonly connection: DataprocConnection,
    timeoutMs: number,
  ) {
    this.tokens = new GoogleAccessTokens('dataproc', connection.credentials, timeoutMs);
    this.batches = `/v1/projects/${connection.project}/locations/${connection.region}/batches`;
    this.http = createUpstreamClient({
      upstream: 'dataproc',
      baseURL: connection.url,
      headers: { Accept: 'application/json' },
      timeoutMs,
      describe: describeGoogleError,
    });
  }

  async start({ block, key, workflow, signal }: StartRequest<DataprocBlock>): Promise<JobRun> {
    const batchId = dataprocBatchId(key, block.name);
    const labels = isJson(block.batch.labels) ? block.batch.labels : {};
    const body = { ...block.batch, labels: { ...labels, 'argo-workflow': workflow.name.slice(0, 63) } };
    try {
      const { data } = await this.http.post(this.batches, body, {
        params: { batchId, requestId: dataprocRequestId(key) },
        ...(await this.auth(signal)),
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
    const { data } = await this.http.get(
      `${this.batches}/${encodeURIComponent(ref.runId)}`,
      await this.auth(signal),
    );
    return this.toJobRun(jsonBody(data, 'dataproc: batches.get'), ref);
  }

  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    const operation =
      ref.operation ?? (await this.poll({ ref, signal } as PollRequest<DataprocBlock>)).ref.operation;
    if (!operation) throw UpstreamError.permanent(`dataproc: batch ${ref.runId} has no operation to cancel`);
    try {
      await this.http.post(`/v1/${operation}:cancel`, {}, await this.auth(signal));
    } catch (err) {
      // The operation already ended (FAILED_PRECONDITION): nothing left to cancel.
      if (upstreamStatus(err) !== 400) throw err;
    }
  }

  private async auth(signal: AbortSignal) {
    return { signal, headers: { Authorization: await this.tokens.authorization() } };
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

export const dataprocModule: DataJobProviderModule<DataprocConnection> = {
  create: (connection, { timeoutMs }) => new DataprocProvider(connection, timeoutMs),
};
