import { randomUUID } from 'node:crypto';
import { Lifecycle, ProviderStandIn } from '@app/local-agent';
import type { LifecycleStep, StandInRequest, StandInResponse } from '@app/local-agent';
import { EntraTokenStandIn, type EntraApp } from './entra-token.stand-in.js';

export type PipelineRunStatus = 'Queued' | 'InProgress' | 'Succeeded' | 'Failed' | 'Canceling' | 'Cancelled';

export interface DataFactoryPipeline {
  name: string;
  /** The parameters the pipeline declares; createRun refuses any other. */
  parameters: string[];
  /** Runs of this pipeline follow it (default: queued, in progress, succeeded). */
  lifecycle?: Array<LifecycleStep<PipelineRunStatus>>;
}

export interface PipelineRun {
  runId: string;
  pipelineName: string;
  parameters: Record<string, string>;
  lifecycle: Lifecycle<PipelineRunStatus>;
  runStart?: string;
  runEnd?: string;
  lastUpdated: string;
  cancelled: boolean;
}

export interface DataFactoryStandInOptions {
  subscriptionId: string;
  resourceGroup: string;
  factory: string;
  tenantId: string;
  apps: EntraApp[];
  pipelines: DataFactoryPipeline[];
  /** Runs per queryPipelineRuns page (the service's is 100). */
  pageSize?: number;
}

export const DATA_FACTORY_API_VERSION = '2018-06-01';
const TERMINAL = new Set<PipelineRunStatus>(['Succeeded', 'Failed', 'Cancelled']);

const armError = (status: number, code: string, message: string): StandInResponse => ({
  status,
  body: { error: { code, message } },
});
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Azure Data Factory's pipeline runs on Azure Resource Manager paths
 * (`/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.DataFactory/factories/<name>/...`,
 * `api-version=2018-06-01` required), with a Microsoft Entra token endpoint (`tokens`, HTTPS) whose bearer tokens
 * are verified on every call (signature, audience https://management.azure.com, issuer, expiry). ARM error
 * bodies `{error: {code, message}}`; `pipelines/<name>/createRun` (the body is the parameters, checked against
 * the pipeline's), `pipelineruns/<id>` (get), `pipelineruns/<id>/cancel` (Canceling, then Cancelled; an ended
 * run: 400), `queryPipelineRuns` (lastUpdatedAfter/Before required, PipelineName filter, RunStart order, pages
 * chained by `continuationToken`).
 */
export class DataFactoryStandIn extends ProviderStandIn {
  readonly tokens: EntraTokenStandIn;
  readonly runs: PipelineRun[] = [];

  constructor(private readonly options: DataFactoryStandInOptions) {
    super('dataFactory', (req) =>
      armError(404, 'NotFound', `The resource path '${req.path}' was not found.`),
    );
    this.tokens = new EntraTokenStandIn({ tenantId: options.tenantId, apps: options.apps });
    const factory =
      '/subscriptions/:subscription/resourceGroups/:group/providers/Microsoft.DataFactory/factories/:factory';
    this.route(
      'POST',
      `${factory}/pipelines/:pipeline/createRun`,
      this.authed((r) => this.createRun(r)),
    )
      .route(
        'GET',
        `${factory}/pipelineruns/:run`,
        this.authed((r) => this.get(r)),
      )
      .route(
        'POST',
        `${factory}/pipelineruns/:run/cancel`,
        this.authed((r) => this.cancel(r)),
      )
      .route(
        'POST',
        `${factory}/queryPipelineRuns`,
        this.authed((r) => this.query(r)),
      );
  }

  /** The factory's path under management.azure.com. */
  get factoryPath(): string {
    const { subscriptionId, resourceGroup, factory } = this.options;
    return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.DataFactory/factories/${factory}`;
  }

  override async start(): Promise<this> {
    await Promise.all([super.start(), this.tokens.start()]);
    return this;
  }

  override async close(): Promise<void> {
    await Promise.all([super.close(), this.tokens.close()]);
  }

  run(runId: string): PipelineRun | undefined {
    return this.runs.find((r) => r.runId === runId);
  }

  private authed(handler: (req: StandInRequest) => StandInResponse) {
    return (req: StandInRequest): StandInResponse => {
      const version = req.query.get('api-version');
      if (version === null)
        return armError(
          400,
          'MissingApiVersionParameter',
          'The api-version query parameter (?api-version=) is required for all requests.',
        );
      const refused = this.tokens.checkBearer(req.headers.authorization);
      switch (refused) {
        case 'missing':
          return armError(
            401,
            'AuthenticationFailed',
            "Authentication failed. The 'Authorization' header is missing.",
          );
        case 'invalid':
        case 'issuer':
          return armError(401, 'InvalidAuthenticationToken', 'The access token is invalid.');
        case 'audience':
          return armError(
            401,
            'InvalidAuthenticationTokenAudience',
            "The access token has been obtained for wrong audience or resource. It should exactly match with one of the allowed audiences 'https://management.core.windows.net/','https://management.azure.com/'.",
          );
        case 'expired':
          return armError(
            401,
            'ExpiredAuthenticationToken',
            'The access token expiry UTC time is earlier than current UTC time.',
          );
      }
      if (version !== DATA_FACTORY_API_VERSION)
        return armError(
          400,
          'InvalidApiVersionParameter',
          `The api-version '${version}' is invalid. The supported versions are '${DATA_FACTORY_API_VERSION},2017-09-01-preview'.`,
        );
      const { subscription, group, factory } = req.params;
      if (subscription !== this.options.subscriptionId)
        return armError(
          404,
          'SubscriptionNotFound',
          `The subscription '${subscription}' could not be found.`,
        );
      if (group !== this.options.resourceGroup)
        return armError(404, 'ResourceGroupNotFound', `Resource group '${group}' could not be found.`);
      if (factory !== this.options.factory)
        return armError(
          404,
          'ResourceNotFound',
          `The Resource 'Microsoft.DataFactory/factories/${factory}' under resource group '${group}' was not found.`,
        );
      return handler(req);
    };
  }

  private view(run: PipelineRun, step = run.lifecycle.peek()): Record<string, unknown> {
    const status = step.state;
    const now = new Date().toISOString();
    if (status !== 'Queued') run.runStart ??= now;
    if (TERMINAL.has(status)) run.runEnd ??= now;
    else run.lastUpdated = now;
    const message =
      status === 'Failed'
        ? (step.message ?? 'Operation on target Run script failed: exit code 1')
        : status === 'Cancelled'
          ? 'User cancelled the run.'
          : '';
    return {
      id: `${this.factoryPath}/pipelineruns/${run.runId}`,
      runId: run.runId,
      debugRunId: null,
      runGroupId: run.runId,
      isLatest: true,
      pipelineName: run.pipelineName,
      parameters: run.parameters,
      invokedBy: { id: randomUUID().replaceAll('-', ''), name: 'Manual', invokedByType: 'Manual' },
      runStart: run.runStart ?? null,
      runEnd: run.runEnd ?? null,
      durationInMs: run.runStart && run.runEnd ? Date.parse(run.runEnd) - Date.parse(run.runStart) : null,
      status,
      message,
      lastUpdated: run.runEnd ?? run.lastUpdated,
      annotations: [],
      runDimension: {},
    };
  }

  private createRun(req: StandInRequest): StandInResponse {
    const pipeline = this.options.pipelines.find((p) => p.name === req.params.pipeline);
    if (!pipeline)
      return armError(
        404,
        'PipelineNotFound',
        `Pipeline '${req.params.pipeline}' does not exist in factory '${this.options.factory}'.`,
      );
    const body = req.body ?? {};
    if (!isObject(body))
      return armError(400, 'BadRequest', 'The request body must be a JSON object of parameters.');
    const undeclared = Object.keys(body).filter((k) => !pipeline.parameters.includes(k));
    if (undeclared.length > 0)
      return armError(
        400,
        'BadRequest',
        `The parameters ${undeclared.map((k) => `'${k}'`).join(', ')} are not declared in pipeline '${pipeline.name}'.`,
      );
    const run: PipelineRun = {
      runId: randomUUID(),
      pipelineName: pipeline.name,
      parameters: Object.fromEntries(
        Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      ),
      lifecycle: new Lifecycle(
        pipeline.lifecycle ?? [{ state: 'Queued' }, { state: 'InProgress' }, { state: 'Succeeded' }],
      ),
      lastUpdated: new Date().toISOString(),
      cancelled: false,
    };
    this.runs.unshift(run);
    return { body: { runId: run.runId } };
  }

  private found(req: StandInRequest): PipelineRun | StandInResponse {
    return (
      this.run(req.params.run) ??
      armError(
        404,
        'PipelineRunNotFound',
        `Pipeline run '${req.params.run}' does not exist in factory '${this.options.factory}'.`,
      )
    );
  }

  private get(req: StandInRequest): StandInResponse {
    const run = this.found(req);
    if (!('runId' in run)) return run;
    return { body: this.view(run, run.lifecycle.read()) };
  }

  private cancel(req: StandInRequest): StandInResponse {
    const run = this.found(req);
    if (!('runId' in run)) return run;
    if (TERMINAL.has(run.lifecycle.peek().state))
      return armError(
        400,
        'BadRequest',
        `Pipeline run '${run.runId}' has already completed and cannot be cancelled.`,
      );
    run.cancelled = true;
    run.lifecycle.redirect([{ state: 'Canceling' }, { state: 'Cancelled' }]);
    return { body: '' };
  }

  private query(req: StandInRequest): StandInResponse {
    const body = req.body;
    if (!isObject(body)) return armError(400, 'BadRequest', 'The request body is required.');
    const after = Date.parse(String(body.lastUpdatedAfter));
    const before = Date.parse(String(body.lastUpdatedBefore));
    if (Number.isNaN(after) || Number.isNaN(before))
      return armError(
        400,
        'BadRequest',
        "The request must give 'lastUpdatedAfter' and 'lastUpdatedBefore' as dates.",
      );
    const filters = Array.isArray(body.filters) ? body.filters.filter(isObject) : [];
    for (const f of filters)
      if (f.operand !== 'PipelineName' || f.operator !== 'Equals' || !Array.isArray(f.values))
        return armError(400, 'BadRequest', `The filter ${JSON.stringify(f)} is not supported here.`);
    const names = filters.flatMap((f) => (f.values as unknown[]).map(String));
    let offset = 0;
    if (body.continuationToken !== undefined) {
      const decoded = Number(Buffer.from(String(body.continuationToken), 'base64url').toString());
      if (!Number.isInteger(decoded) || decoded < 0)
        return armError(400, 'BadRequest', 'The continuation token is not valid.');
      offset = decoded;
    }
    const matching = this.runs.filter((r) => {
      const updated = Date.parse(String(this.view(r).lastUpdated));
      return (names.length === 0 || names.includes(r.pipelineName)) && updated >= after && updated <= before;
    });
    const size = this.options.pageSize ?? 100;
    const page = matching.slice(offset, offset + size);
    const next =
      offset + size < matching.length ? Buffer.from(String(offset + size)).toString('base64url') : undefined;
    return { body: { value: page.map((r) => this.view(r)), ...(next && { continuationToken: next }) } };
  }
}
