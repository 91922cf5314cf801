import type { AxiosInstance, AxiosResponse } from 'axios';
import { UpstreamError } from '@app/plugin-kit';
import { createUpstreamClient } from '@app/plugin-kit/upstream/http-client.js';
import { parseTime, type JobRun, type RunRef } from '../../job/job-run.js';
import { snowflakeRequestId } from '../../job/run-keys.js';
import type { Scalar } from '../../dto/validators.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import { defined, isJson } from '../upstream-reply.js';
import { SnowflakeBlock } from './snowflake-block.dto.js';
import { SnowflakeJwt } from './snowflake-jwt.js';
import type { SnowflakeConnection } from './snowflake-settings.js';
import { mapSnowflakeReply } from './snowflake-states.js';

const STATEMENTS = '/api/v2/statements';

/** Statuses that are a statement's state, not a failed request: running, done, failed, timed out. */
const STATEMENT_STATUSES = new Set([200, 202, 408, 422]);

/** Snowflake's error body: `{code, message, sqlState?}`. */
function describe(response: AxiosResponse): string | undefined {
  const d = response.data;
  if (!isJson(d) || typeof d.message !== 'string') return undefined;
  return typeof d.code === 'string' ? `${d.message} (${d.code})` : d.message;
}

/** A binding per `?`, typed as Snowflake reads it: TEXT, FIXED (integers), REAL, BOOLEAN. */
function bindingsOf(
  values: Scalar[] | undefined,
): Record<string, { type: string; value: string }> | undefined {
  if (!values?.length) return undefined;
  const type = (v: Scalar) =>
    typeof v === 'boolean'
      ? 'BOOLEAN'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'FIXED'
          : 'REAL'
        : 'TEXT';
  return Object.fromEntries(values.map((v, i) => [String(i + 1), { type: type(v), value: String(v) }]));
}

/**
 * Snowflake's SQL API v2 with key-pair authentication. A statement runs asynchronously; its `requestId` is
 * derived from the execution key and sent with `retry=true`, so a second POST (a restarted sidecar) returns
 * the statement the first one started instead of running it again.
 */
export class SnowflakeProvider implements DataJobProvider<SnowflakeBlock> {
  private readonly http: AxiosInstance;
  private readonly jwt: SnowflakeJwt;

  constructor(
    private readonly connection: SnowflakeConnection,
    timeoutMs: number,
  ) {
    this.jwt = new SnowflakeJwt(connection.account, connection.user, connection.privateKey);
    this.http = createUpstreamClient({
      upstream: 'snowflake',
      baseURL: connection.url,
      headers: {
        Accept: 'application/json',
        'User-Agent': 'argo-data-job-runner/1',
        'X-Snowflake-Authorization-Token-Type': 'KEYPAIR_JWT',
      },
      timeoutMs,
      describe,
    });
  }

  async start({ block, key, signal }: StartRequest<SnowflakeBlock>): Promise<JobRun> {
    const body = defined({
      statement: block.statement,
      bindings: bindingsOf(block.bindings),
      warehouse: block.warehouse,
      database: block.database,
      schema: block.schema,
      role: block.role,
      parameters: block.queryTag === undefined ? undefined : { QUERY_TAG: block.queryTag },
    });
    const reply = await this.http.post(STATEMENTS, body, {
      params: { requestId: snowflakeRequestId(key), retry: true, async: true },
      ...this.request(signal),
    });
    return this.toJobRun(reply, 'POST /api/v2/statements');
  }

  async poll({ ref, signal }: PollRequest<SnowflakeBlock>): Promise<JobRun> {
    const reply = await this.http.get(`${STATEMENTS}/${encodeURIComponent(ref.runId)}`, this.request(signal));
    return this.toJobRun(reply, 'GET /api/v2/statements/{handle}', ref.runId);
  }

  /** A 422 says the statement already ended: there is nothing left to cancel. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    await this.http.post(
      `${STATEMENTS}/${encodeURIComponent(ref.runId)}/cancel`,
      undefined,
      this.request(signal),
    );
  }

  private request(signal: AbortSignal) {
    return {
      signal,
      headers: { Authorization: `Bearer ${this.jwt.token()}` },
      validateStatus: (status: number) => STATEMENT_STATUSES.has(status),
    };
  }

  private toJobRun(reply: AxiosResponse, what: string, knownHandle?: string): JobRun {
    const body: unknown = reply.data;
    const b = isJson(body) ? body : {};
    const handle =
      typeof b.statementHandle === 'string' && b.statementHandle !== '' ? b.statementHandle : knownHandle;
    if (handle === undefined) {
      const said = typeof b.message === 'string' ? `: ${b.message}` : '';
      throw UpstreamError.permanent(`snowflake: ${what} → ${reply.status}${said} (no statement handle)`, {
        status: reply.status,
      });
    }
    const mapped = mapSnowflakeReply(reply.status, body);
    const meta = isJson(b.resultSetMetaData) ? b.resultSetMetaData : undefined;
    const { consoleUrl } = this.connection;
    return {
      ref: { runId: handle },
      url: consoleUrl
        ? `${consoleUrl}/#/compute/history/queries/${encodeURIComponent(handle)}/detail`
        : undefined,
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: mapped.message,
      startedAt: parseTime(b.createdOn),
      extras: typeof meta?.numRows === 'number' ? { numRows: String(meta.numRows) } : undefined,
    };
  }
}

export const snowflakeModule: DataJobProviderModule<SnowflakeConnection, SnowflakeBlock> = {
  block: SnowflakeBlock,
  create: (connection, { timeoutMs }) => new SnowflakeProvider(connection, timeoutMs),
};
