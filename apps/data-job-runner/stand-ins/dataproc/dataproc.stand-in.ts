import { randomUUID } from 'node:crypto';
import { Lifecycle } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';
import { GoogleApiStandIn, type GoogleApiStandInOptions } from '../google-api-stand-in.js';
import { googleError } from '../google-token.js';

export type DataprocState = 'PENDING' | 'RUNNING' | 'CANCELLING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

export interface DataprocBatch {
  id: string;
  uuid: string;
  requestId?: string;
  operation: string;
  /** The body as received (argument capture). */
  request: Record<string, unknown>;
  lifecycle: Lifecycle<DataprocState>;
  createTime: string;
  cancelled: boolean;
}

export interface DataprocStandInOptions extends GoogleApiStandInOptions {
  lifecycle?: Array<LifecycleStep<DataprocState>>;
}

const BATCH_FIELDS = new Set([
  'pysparkBatch',
  'sparkBatch',
  'sparkRBatch',
  'sparkSqlBatch',
  'runtimeConfig',
  'environmentConfig',
  'labels',
]);
const KINDS = ['pysparkBatch', 'sparkBatch', 'sparkRBatch', 'sparkSqlBatch'];
const BATCH_ID = /^[a-z][a-z0-9-]{2,61}[a-z0-9]$/;
const REQUEST_ID = /^[A-Za-z0-9_-]{1,40}$/;
const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

/**
 * Dataproc Serverless v1 batches, with Google's token endpoint (POST /token, the service account's
 * assertion verified): OAuth bearer tokens it issued, Google error bodies, `batches.create` as a long-running
 * operation (`batchId` 4-63 characters, a repeated `requestId` returns the first operation, a taken
 * `batchId` 409 ALREADY_EXISTS), `batches.get`, `batches.list` in pages, `operations.get` and
 * `operations.cancel` (the batch goes CANCELLING, then CANCELLED; an ended operation: 400 FAILED_PRECONDITION).
 */
export class DataprocStandIn extends GoogleApiStandIn {
  readonly batches: DataprocBatch[] = [];
  /** Batches whose body contains `match` (e.g. their main file) follow `lifecycle`. */
  readonly scripts: Array<{ match: string; lifecycle: Array<LifecycleStep<DataprocState>> }> = [];

  constructor(private readonly options: DataprocStandInOptions) {
    super('dataproc', options);
    const base = '/v1/projects/:project/locations/:region/batches';
    this.route(
      'POST',
      base,
      this.authed((req) => this.create(req)),
    )
      .route(
        'GET',
        base,
        this.authed((req) => this.list(req)),
      )
      .route(
        'GET',
        `${base}/:batch`,
        this.authed((req) => this.get(req)),
      )
      .route(
        'GET',
        '/v1/projects/:project/regions/:region/operations/:op',
        this.authed((req) => this.operation(req)),
      )
      .route(
        'POST',
        '/v1/projects/:project/regions/:region/operations/:op',
        this.authed((req) => this.cancel(req)),
      );
  }

  batch(id: string): DataprocBatch | undefined {
    return this.batches.find((b) => b.id === id);
  }

  protected deniedProject(req: StandInRequest): StandInResponse {
    return googleError(
      403,
      `Permission 'dataproc.batches.create' denied on resource '//dataproc.googleapis.com/projects/${req.params.project}/locations/${req.params.region}' (or it may not exist).`,
      'PERMISSION_DENIED',
    );
  }

  protected unknownRegion(req: StandInRequest): StandInResponse {
    return googleError(
      400,
      `Region '${req.params.region}' is invalid. Please see https://cloud.google.com/dataproc/docs/concepts/regional-endpoints for additional information on regional endpoints`,
      'INVALID_ARGUMENT',
    );
  }

  private operationName(uuid: string): string {
    return `projects/${this.options.project}/regions/${this.options.region}/operations/${uuid}`;
  }

  private batchName(id: string): string {
    return `projects/${this.options.project}/locations/${this.options.region}/batches/${id}`;
  }

  private create(req: StandInRequest): StandInResponse {
    const requestId = req.query.get('requestId') ?? undefined;
    if (requestId !== undefined && !REQUEST_ID.test(requestId))
      return googleError(
        400,
        'Invalid request_id: must contain only letters, numbers, underscores and hyphens, at most 40 characters.',
        'INVALID_ARGUMENT',
      );
    const seen = requestId === undefined ? undefined : this.batches.find((b) => b.requestId === requestId);
    if (seen) return { body: this.operationView(seen) };
    const id = req.query.get('batchId') ?? randomUUID().replaceAll('-', '');
    if (!BATCH_ID.test(id))
      return googleError(
        400,
        'Batch ID must conform to the pattern [a-z0-9][a-z0-9-]{2,61}[a-z0-9] (4 to 63 characters).',
        'INVALID_ARGUMENT',
      );
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return googleError(400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT');
    const b = body as Record<string, unknown>;
    const unknown = Object.keys(b).find((k) => !BATCH_FIELDS.has(k));
    if (unknown !== undefined)
      return googleError(
        400,
        `Invalid JSON payload received. Unknown name "${unknown}" at 'batch': Cannot find field.`,
        'INVALID_ARGUMENT',
      );
    if (KINDS.filter((k) => k in b).length !== 1)
      return googleError(
        400,
        'Batch must specify exactly one of pyspark_batch, spark_batch, spark_r_batch or spark_sql_batch.',
        'INVALID_ARGUMENT',
      );
    if (this.batch(id))
      return googleError(
        409,
        `Already exists: Failed to create batch: Batch ${this.batchName(id)}`,
        'ALREADY_EXISTS',
      );
    const uuid = randomUUID();
    const batch: DataprocBatch = {
      id,
      uuid,
      requestId,
      operation: this.operationName(randomUUID()),
      request: structuredClone(b),
      lifecycle: new Lifecycle(
        this.scripts.find((sc) => JSON.stringify(b).includes(sc.match))?.lifecycle ??
          this.options.lifecycle ?? [{ state: 'PENDING' }, { state: 'RUNNING' }, { state: 'SUCCEEDED' }],
      ),
      createTime: new Date().toISOString(),
      cancelled: false,
    };
    this.batches.push(batch);
    return { body: this.operationView(batch) };
  }

  private operationView(batch: DataprocBatch): Record<string, unknown> {
    const state = batch.lifecycle.peek().state;
    const done = TERMINAL.has(state);
    return {
      name: batch.operation,
      metadata: {
        '@type': 'type.googleapis.com/google.cloud.dataproc.v1.BatchOperationMetadata',
        batch: this.batchName(batch.id),
        batchUuid: batch.uuid,
        createTime: batch.createTime,
        operationType: 'BATCH',
        description: `Batch ${batch.id}`,
      },
      done,
      ...(done && state !== 'SUCCEEDED'
        ? {
            error: {
              code: state === 'CANCELLED' ? 1 : 2,
              message: state === 'CANCELLED' ? 'Batch cancelled' : 'Batch failed',
            },
          }
        : done
          ? {
              response: {
                '@type': 'type.googleapis.com/google.cloud.dataproc.v1.Batch',
                ...this.view(batch),
              },
            }
          : {}),
    };
  }

  private view(batch: DataprocBatch): Record<string, unknown> {
    const step = batch.lifecycle.peek();
    return {
      name: this.batchName(batch.id),
      uuid: batch.uuid,
      createTime: batch.createTime,
      ...batch.request,
      runtimeInfo: {
        outputUri: `gs://dataproc-staging-${this.options.region}/google-cloud-dataproc-metainfo/${batch.uuid}/jobs/srvls-batch-${batch.uuid}/driveroutput`,
      },
      state: step.state,
      ...(step.message && { stateMessage: step.message }),
      stateTime: new Date().toISOString(),
      creator: this.options.serviceAccount.clientEmail,
      operation: batch.operation,
    };
  }

  private get(req: StandInRequest): StandInResponse {
    const batch = this.batch(req.params.batch);
    if (!batch)
      return googleError(
        404,
        `Not found: Batch projects/${req.params.project}/locations/${req.params.region}/batches/${req.params.batch}`,
        'NOT_FOUND',
      );
    batch.lifecycle.read();
    return { body: this.view(batch) };
  }

  private list(req: StandInRequest): StandInResponse {
    const size = Math.min(Number(req.query.get('pageSize') ?? 100) || 100, 1000);
    const offset = Number(
      req.query.get('pageToken') ? Buffer.from(req.query.get('pageToken')!, 'base64url').toString() : 0,
    );
    const page = this.batches.slice(offset, offset + size);
    const next =
      offset + size < this.batches.length
        ? Buffer.from(String(offset + size)).toString('base64url')
        : undefined;
    return { body: { batches: page.map((b) => this.view(b)), ...(next && { nextPageToken: next }) } };
  }

  private byOperation(req: StandInRequest): DataprocBatch | undefined {
    const name = this.operationName(req.params.op.replace(/:cancel$/, ''));
    return this.batches.find((b) => b.operation === name);
  }

  private operation(req: StandInRequest): StandInResponse {
    const batch = this.byOperation(req);
    return batch ? { body: this.operationView(batch) } : googleError(404, 'Operation not found', 'NOT_FOUND');
  }

  private cancel(req: StandInRequest): StandInResponse {
    if (!req.params.op.endsWith(':cancel')) return googleError(404, 'Method not found.', 'NOT_FOUND');
    const batch = this.byOperation(req);
    if (!batch) return googleError(404, 'Operation not found', 'NOT_FOUND');
    if (TERMINAL.has(batch.lifecycle.peek().state))
      return googleError(
        400,
        `Cannot cancel batch ${this.batchName(batch.id)} in state ${batch.lifecycle.peek().state}`,
        'FAILED_PRECONDITION',
      );
    batch.cancelled = true;
    batch.lifecycle.redirect([{ state: 'CANCELLING' }, { state: 'CANCELLED' }]);
    return { body: {} };
  }
}
