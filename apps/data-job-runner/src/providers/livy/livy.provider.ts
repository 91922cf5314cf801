import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import type { LivyConnection } from './livy-settings.js';
import { LivyBlock } from './livy-block.dto.js';
import { stringList, stringMap } from '../../dto/validators.js';
import type { JobRun, RunExtras, RunRef } from '../../job/job-run.js';
import { livyBatchName } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { defined, isJson, jsonBody, upstreamStatus, type Json } from '../upstream-reply.js';
import { mapLivyState } from './livy-states.js';

const LOG_LINES = 50;
const MAX_LOG_TAIL = 4000;

/** `{msg}` bodies, and Jetty's HTML pages (the CSRF 400) reduced to their reason. */
function describe(response: AxiosResponse): string | undefined {
  const d = response.data;
  if (isJson(d) && typeof d.msg === 'string') return d.msg;
  if (typeof d === 'string') {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(d)?.[1];
    if (title) return title.replace(/^Error \d+\s*/, '').trim();
  }
  return undefined;
}

/**
 * Apache Livy batches. Exactly one batch per execution through a unique batch `name` derived from the
 * execution key: Livy refuses a duplicate name while it still holds the batch, and the plugin then adopts it
 * by name. Livy forgets finished batches after its retention window (10 minutes by default).
 */
export class LivyProvider implements DataJobProvider<LivyBlock> {
  private readonly http: AxiosInstance;

  constructor(
    private readonly connection: LivyConnection,
    timeoutMs: number,
  ) {
    const { username, password } = connection;
    this.http = createUpstreamClient({
      upstream: 'livy',
      baseURL: connection.url,
      // Livy's CSRF filter wants this header on every non-GET request; any value will do.
      headers: { 'X-Requested-By': 'argo-data-job' },
      auth: username !== undefined && password !== undefined ? { username, password } : undefined,
      timeoutMs,
      describe,
      transient: (r) => r.status === 400 && /too many sessions/i.test(describe(r) ?? ''),
    });
  }

  async start({ block, key, signal }: StartRequest<LivyBlock>): Promise<JobRun> {
    const name = livyBatchName(key, block.name);
    const body = defined({
      file: block.file,
      className: block.className,
      args: stringList(block.args),
      conf: stringMap(block.conf),
      name,
      pyFiles: block.pyFiles,
      jars: block.jars,
      files: block.files,
      driverMemory: block.driverMemory,
      executorMemory: block.executorMemory,
      numExecutors: block.numExecutors,
    });
    try {
      const { data } = await this.http.post('/batches', body, { signal });
      return this.toJobRun(jsonBody(data, 'livy: batch'), name);
    } catch (err) {
      if (!(upstreamStatus(err) === 400 && /Duplicate session name/.test((err as Error).message))) throw err;
    }
    // Livy still holds a batch with our name: started by us before a restart, or by a concurrent call.
    const { data } = await this.http.get(`/batches/${encodeURIComponent(name)}`, { signal });
    const batch = jsonBody(data, 'livy: batch');
    if (batch.name !== name)
      throw UpstreamError.permanent(`livy: batch ${String(batch.id)} is not named ${name}`);
    return this.toJobRun(batch, name);
  }

  async poll({ ref, signal, cancelRequested }: PollRequest<LivyBlock>): Promise<JobRun> {
    try {
      const { data } = await this.http.get(`/batches/${encodeURIComponent(ref.runId)}`, { signal });
      const batch = jsonBody(data, 'livy: batch');
      // After a restart without recovery Livy reuses ids: a batch with another name is not ours.
      if (typeof batch.name === 'string' && batch.name === ref.batchName)
        return this.toJobRun(batch, batch.name);
    } catch (err) {
      if (upstreamStatus(err) !== 404) throw err;
    }
    return this.forgotten(ref, cancelRequested);
  }

  /** Kills the application and removes the batch; a batch Livy no longer knows is already gone. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    try {
      await this.http.delete(`/batches/${encodeURIComponent(ref.runId)}`, { signal });
    } catch (err) {
      if (upstreamStatus(err) !== 404) throw err;
    }
  }

  /** On failure, the tail of the batch log (one request). */
  async finish(run: JobRun, { ref, signal }: PollRequest<LivyBlock>): Promise<RunExtras> {
    if (run.state === 'succeeded' || run.upstreamState === 'not found') return { outputs: {} };
    let lines: string[] = [];
    try {
      const { data } = await this.http.get(`/batches/${encodeURIComponent(ref.runId)}/log`, {
        params: { size: LOG_LINES },
        signal,
      });
      lines = isJson(data) && Array.isArray(data.log) ? data.log.map(String) : [];
    } catch (err) {
      if (upstreamStatus(err) !== 404) throw err;
    }
    const meaningful = lines
      .map((l) => l.trim())
      .filter((l) => l !== '' && l !== 'stdout:' && l !== 'stderr:');
    if (meaningful.length === 0) return { outputs: {} };
    return {
      outputs: { logTail: clipMasked(meaningful.join('\n'), MAX_LOG_TAIL) },
      detail: clipMasked(meaningful[meaningful.length - 1], 500),
    };
  }

  private forgotten(ref: RunRef, cancelRequested: boolean): JobRun {
    return {
      ref,
      state: cancelRequested ? 'cancelled' : 'failed',
      upstreamState: 'not found',
      message: cancelRequested
        ? `batch ${ref.runId} was deleted when it was cancelled`
        : `Livy no longer knows batch ${ref.runId} (retention): it finished more than livy.server.session.state-retain.sec ago, or Livy restarted without recovery`,
    };
  }

  private toJobRun(batch: Json, name: string): JobRun {
    if (typeof batch.id !== 'number') throw UpstreamError.permanent('livy: the batch has no id');
    const mapped = mapLivyState(batch.state);
    const appInfo = isJson(batch.appInfo) ? batch.appInfo : {};
    const url = [appInfo.sparkUiUrl, appInfo.driverLogUrl].find(
      (u): u is string => typeof u === 'string' && u !== '',
    );
    return {
      ref: { runId: String(batch.id), batchName: name },
      url: url ?? `${this.connection.url}/ui`,
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      extras: typeof batch.appId === 'string' ? { appId: batch.appId } : undefined,
      raw: batch,
    };
  }
}

export const livyModule: DataJobProviderModule<LivyConnection, LivyBlock> = {
  block: LivyBlock,
  create: (connection, { timeoutMs }) => new LivyProvider(connection, timeoutMs),
};
