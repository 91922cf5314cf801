import type { GlueClient, JobRun as GlueJobRun } from '@aws-sdk/client-glue';
import { UpstreamError, type Redactor } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { awsCall } from '../../aws/aws-call.js';
import { lazyAwsClient } from '../../aws/lazy-aws-client.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import { stringMap } from '../../dto/validators.js';
import type { JobRun, RunRef } from '../../job/job-run.js';
import { GLUE_KEY_ARGUMENT } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import type { GlueBlock } from './glue-block.dto.js';
import { mapGlueState } from './glue-states.js';

const UPSTREAM = 'glue';
/** GetJobRuns pages (of 200, newest first) searched for the run of an execution before one is started. */
const LOOKUP_PAGES = 3;

type Sdk = typeof import('@aws-sdk/client-glue');

/**
 * AWS Glue job runs. Glue has no idempotency token, so the run carries the execution key as the job argument
 * `--argo-execution-key`: before starting, the job's most recent runs (GetJobRuns) are searched for it, and a
 * match is followed instead of starting another run.
 */
export class GlueProvider implements DataJobProvider<GlueBlock> {
  private readonly aws: () => Promise<{ sdk: Sdk; client: GlueClient }>;

  constructor(
    private readonly connection: AwsConnection,
    context: { timeoutMs: number; redactor: Redactor },
  ) {
    this.aws = lazyAwsClient(
      () => import('@aws-sdk/client-glue'),
      (sdk, config) => new sdk.GlueClient(config as never),
      connection,
      context,
    );
  }

  async start({ block, key, signal }: StartRequest<GlueBlock>): Promise<JobRun> {
    const found = await this.find(block.jobName, key, signal);
    if (found) return this.toJobRun({ runId: found.Id!, jobName: block.jobName }, found);
    const started = await awsCall(UPSTREAM, 'StartJobRun', async () => {
      const { sdk, client } = await this.aws();
      return client.send(
        new sdk.StartJobRunCommand({
          JobName: block.jobName,
          Arguments: { ...stringMap(block.arguments), [GLUE_KEY_ARGUMENT]: key },
          Timeout: block.timeoutMinutes,
          WorkerType: block.workerType as never,
          NumberOfWorkers: block.numberOfWorkers,
          ExecutionClass: block.executionClass as never,
        }),
        { abortSignal: signal },
      );
    });
    if (!started.JobRunId) throw UpstreamError.permanent(`${UPSTREAM}: StartJobRun returned no JobRunId`);
    const ref = { runId: started.JobRunId, jobName: block.jobName };
    return { ref, url: this.consoleUrl(ref), state: 'queued', upstreamState: 'STARTING', provisional: true };
  }

  async poll({ ref, signal }: PollRequest<GlueBlock>): Promise<JobRun> {
    const { JobRun: run } = await awsCall(UPSTREAM, 'GetJobRun', async () => {
      const { sdk, client } = await this.aws();
      return client.send(new sdk.GetJobRunCommand({ JobName: ref.jobName, RunId: ref.runId }), {
        abortSignal: signal,
      });
    });
    if (!run) throw UpstreamError.permanent(`${UPSTREAM}: GetJobRun returned no JobRun`);
    return this.toJobRun(ref, run);
  }

  /** Stops the run (STOPPING → STOPPED); a run that has ended or is gone is reported in `Errors` and left as it is. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    const { Errors: errors } = await awsCall(UPSTREAM, 'BatchStopJobRun', async () => {
      const { sdk, client } = await this.aws();
      return client.send(new sdk.BatchStopJobRunCommand({ JobName: ref.jobName, JobRunIds: [ref.runId] }), {
        abortSignal: signal,
      });
    });
    const refused = errors?.find(
      (e) => !['InvalidInputException', 'EntityNotFoundException'].includes(e.ErrorDetail?.ErrorCode ?? ''),
    );
    if (refused)
      throw UpstreamError.permanent(
        `${UPSTREAM}: BatchStopJobRun refused run ${ref.runId}: ${refused.ErrorDetail?.ErrorCode}: ${clipMasked(refused.ErrorDetail?.ErrorMessage ?? '', 300)}`,
      );
  }

  private async find(jobName: string, key: string, signal: AbortSignal): Promise<GlueJobRun | undefined> {
    let nextToken: string | undefined;
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const listed = await awsCall(UPSTREAM, 'GetJobRuns', async () => {
        const { sdk, client } = await this.aws();
        return client.send(
          new sdk.GetJobRunsCommand({ JobName: jobName, MaxResults: 200, NextToken: nextToken }),
          {
            abortSignal: signal,
          },
        );
      });
      const ours = listed.JobRuns?.find((r) => r.Arguments?.[GLUE_KEY_ARGUMENT] === key && r.Id);
      if (ours) return ours;
      nextToken = listed.NextToken;
      if (!nextToken) return undefined;
    }
    return undefined;
  }

  private toJobRun(ref: RunRef, run: GlueJobRun): JobRun {
    const mapped = mapGlueState(run.JobRunState, run.ErrorMessage);
    return {
      ref,
      url: this.consoleUrl(ref),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: mapped.message === undefined ? undefined : clipMasked(mapped.message, 500),
      startedAt: run.StartedOn?.getTime(),
      finishedAt: run.CompletedOn?.getTime(),
      extras: { jobName: ref.jobName! },
    };
  }

  private consoleUrl(ref: RunRef): string {
    const region = this.connection.region;
    return `https://${region}.console.aws.amazon.com/gluestudio/home?region=${region}#/job/${encodeURIComponent(ref.jobName!)}/run/${ref.runId}`;
  }
}

export const glueModule: DataJobProviderModule<AwsConnection> = {
  create: (connection, context) => new GlueProvider(connection, context),
};
