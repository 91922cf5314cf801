import type { AxiosResponse } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { parseTime, isTerminal, type JobRun, type RunRef } from '../../job/job-run.js';
import { DATA_FACTORY_KEY_PARAMETER } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { isJson, jsonBody, upstreamStatus, type Json } from '../upstream-reply.js';
import { AzureAccessTokens, caAgent } from './azure-tokens.js';
import { DataFactoryBlock } from './data-factory-block.dto.js';
import type { DataFactoryConnection } from './data-factory-settings.js';
import { mapDataFactoryRun } from './data-factory-states.js';

export const DATA_FACTORY_API_VERSION = '2018-06-01';
/** queryPipelineRuns pages (newest first) searched for the run of a key before a run is created. */
const LOOKUP_PAGES = 10;
/** How far back the search looks: the longest step timeout (720h) and a day. */
const LOOKUP_WINDOW_MS = 31 * 24 * 3600_000;

/** Azure Resource Manager's error body: `{error: {code, message}}`. */
export function describeArmError(response: AxiosResponse): string | undefined {
  const e = isJson(response.data) ? response.data.error : undefined;
  if (!isJson(e) || typeof e.message !== 'string') return undefined;
  return typeof e.code === 'string' ? `${e.message} (${e.code})` : e.message;
}

/**
 * Azure Data Factory pipeline runs (REST API 2018-06-01). A run has no idempotency token, so it carries the
 * execution key as the pipeline parameter `argoExecutionKey`: before creating a run, queryPipelineRuns lists
 * the pipeline's recent runs (newest first, following continuationToken) and a run whose parameters hold the
 * key is followed instead. A cancel cancels the run.
 */
export class DataFactoryProvider implements DataJobProvider<DataFactoryBlock> {
  private readonly http;
  private readonly tokens: AzureAccessTokens;

  constructor(
    private readonly connection: DataFactoryConnection,
    timeoutMs: number,
  ) {
    this.tokens = new AzureAccessTokens(
      connection.authorityHost,
      connection.credential,
      timeoutMs,
      connection.ca,
    );
    this.http = createUpstreamClient({
      upstream: 'dataFactory',
      baseURL: `${connection.url}${connection.factoryPath}`,
      headers: { Accept: 'application/json' },
      timeoutMs,
      describe: describeArmError,
    });
    this.http.defaults.httpsAgent = caAgent(connection.ca);
  }

  async start({ block, key, signal }: StartRequest<DataFactoryBlock>): Promise<JobRun> {
    const found = await this.find(block.pipeline, key, signal);
    if (found) return this.toJobRun(found, { runId: String(found.runId) });
    const { data } = await this.http.post(
      `/pipelines/${encodeURIComponent(block.pipeline)}/createRun`,
      { ...block.parameters, [DATA_FACTORY_KEY_PARAMETER]: key },
      await this.options(signal),
    );
    const created = jsonBody(data, 'dataFactory: createRun');
    if (typeof created.runId !== 'string' || created.runId === '')
      throw UpstreamError.permanent('dataFactory: createRun: the reply names no runId');
    return {
      ref: { runId: created.runId },
      url: this.monitorUrl(created.runId),
      state: 'queued',
      upstreamState: 'Queued',
      provisional: true,
    };
  }

  async poll({ ref, signal }: PollRequest<DataFactoryBlock>): Promise<JobRun> {
    const { data } = await this.http.get(
      `/pipelineruns/${encodeURIComponent(ref.runId)}`,
      await this.options(signal),
    );
    return this.toJobRun(jsonBody(data, 'dataFactory: pipelineruns/get'), ref);
  }

  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    try {
      await this.http.post(
        `/pipelineruns/${encodeURIComponent(ref.runId)}/cancel`,
        undefined,
        await this.options(signal),
      );
    } catch (err) {
      // The run already ended: nothing left to cancel.
      if (upstreamStatus(err) !== 400) throw err;
    }
  }

  private async options(signal: AbortSignal, params: Record<string, string> = {}) {
    return {
      signal,
      params: { ...params, 'api-version': DATA_FACTORY_API_VERSION },
      headers: { Authorization: await this.tokens.authorization(signal) },
    };
  }

  private async find(pipeline: string, key: string, signal: AbortSignal): Promise<Json | undefined> {
    const now = Date.now();
    let continuationToken: string | undefined;
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const { data } = await this.http.post(
        '/queryPipelineRuns',
        {
          lastUpdatedAfter: new Date(now - LOOKUP_WINDOW_MS).toISOString(),
          lastUpdatedBefore: new Date(now + 3600_000).toISOString(),
          filters: [{ operand: 'PipelineName', operator: 'Equals', values: [pipeline] }],
          orderBy: [{ orderBy: 'RunStart', order: 'DESC' }],
          ...(continuationToken && { continuationToken }),
        },
        await this.options(signal),
      );
      const listed = jsonBody(data, 'dataFactory: queryPipelineRuns');
      const runs = Array.isArray(listed.value) ? listed.value.filter(isJson) : [];
      const ours = runs.find(
        (r) =>
          isJson(r.parameters) &&
          r.parameters[DATA_FACTORY_KEY_PARAMETER] === key &&
          typeof r.runId === 'string',
      );
      if (ours) return ours;
      continuationToken =
        typeof listed.continuationToken === 'string' && listed.continuationToken !== ''
          ? listed.continuationToken
          : undefined;
      if (!continuationToken) return undefined;
    }
    return undefined;
  }

  private monitorUrl(runId: string): string {
    const { subscriptionId, resourceGroup, factory } = this.connection;
    const id = `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.DataFactory/factories/${factory}`;
    return `https://adf.azure.com/en/monitoring/pipelineruns/${encodeURIComponent(runId)}?factory=${encodeURIComponent(id)}`;
  }

  private toJobRun(run: Json, ref: RunRef): JobRun {
    const mapped = mapDataFactoryRun(run);
    return {
      ref,
      url: this.monitorUrl(ref.runId),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: mapped.message,
      startedAt: parseTime(run.runStart),
      finishedAt: isTerminal(mapped.state) ? parseTime(run.runEnd) : undefined,
    };
  }
}

export const dataFactoryModule: DataJobProviderModule<DataFactoryConnection, DataFactoryBlock> = {
  block: DataFactoryBlock,
  create: (connection, { timeoutMs }) => new DataFactoryProvider(connection, timeoutMs),
};
