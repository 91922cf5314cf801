import type { JobRun as GlueJobRun } from '@aws-sdk/client-glue';
import { UpstreamError, type Redactor } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { AwsJobProvider } from '../../aws/aws-job-provider.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import { stringMap } from '../../dto/validators.js';
import type { JobRun, RunRef } from '../../job/job-run.js';
import { GLUE_KEY_ARGUMENT } from '../../job/run-keys.js';
import type { DataJobProviderModule, PollRequest, StartRequest } from '../data-job-provider.js';
import { GlueBlock } from './glue-block.dto.js';
import { mapGlueState } from './glue-states.js';

/** GetJobRuns pages (of 200, newest first) searched for the run of an execution before one is started. */
const LOOKUP_PAGES = 3;

/**
 * AWS Glue job runs. Glue has no idempotency token, so the run carries the execution key as the job argument
 * `--argo-execution-key`: before starting, the job's most recent runs (GetJobRuns) are searched for it, and a
 * match is followed instead of starting another run.
 */
export class GlueProvider extends AwsJobProvider<typeof import('@aws-sdk/client-glue'), GlueBlock> {
  constructor(connection: AwsConnection, context: { timeoutMs: number; redactor: Redactor }) {
    super('glue', connection, context, {
      load: () => import('@aws-sdk/client-glue'),
      client: (sdk, config) => new sdk.GlueClient(config as never),
    });
  }

  async start({ block, key, signal }: StartRequest<GlueBlock>): Promise<JobRun> {
    const found = await this.find(block.jobName, key, signal);
    if (found) return this.toJobRun({ runId: found.Id!, jobName: block.jobName }, found);
    const started = await this.send(
      'StartJobRun',
      (sdk) =>
        new sdk.StartJobRunCommand({
          JobName: block.jobName,
          Arguments: { ...stringMap(block.arguments), [GLUE_KEY_ARGUMENT]: key },
          Timeout: block.timeoutMinutes,
          WorkerType: block.workerType as never,
          NumberOfWorkers: block.numberOfWorkers,
          ExecutionClass: block.executionClass as never,
        }),
      signal,
    );
    const runId = this.returned(started.JobRunId, 'StartJobRun', 'JobRunId');
    return this.provisional({ runId, jobName: block.jobName }, 'STARTING');
  }

  async poll({ ref, signal }: PollRequest<GlueBlock>): Promise<JobRun> {
    const { JobRun: run } = await this.send(
      'GetJobRun',
      (sdk) => new sdk.GetJobRunCommand({ JobName: ref.jobName, RunId: ref.runId }),
      signal,
    );
    return this.toJobRun(ref, this.returned(run, 'GetJobRun', 'JobRun'));
  }

  /** Stops the run (STOPPING → STOPPED); a run that has ended or is gone is reported in `Errors` and left as it is. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    const { Errors: errors } = await this.send(
      'BatchStopJobRun',
      (sdk) => new sdk.BatchStopJobRunCommand({ JobName: ref.jobName, JobRunIds: [ref.runId] }),
      signal,
    );
    const refused = errors?.find(
      (e) => !['InvalidInputException', 'EntityNotFoundException'].includes(e.ErrorDetail?.ErrorCode ?? ''),
    );
    if (refused)
      throw UpstreamError.permanent(
        `${this.upstream}: BatchStopJobRun refused run ${ref.runId}: ${refused.ErrorDetail?.ErrorCode}: ${clipMasked(refused.ErrorDetail?.ErrorMessage ?? '', 300)}`,
      );
  }

  private async find(jobName: string, key: string, signal: AbortSignal): Promise<GlueJobRun | undefined> {
    let nextToken: string | undefined;
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const listed = await this.send(
        'GetJobRuns',
        (sdk) => new sdk.GetJobRunsCommand({ JobName: jobName, MaxResults: 200, NextToken: nextToken }),
        signal,
      );
      const ours = listed.JobRuns?.find((r) => r.Arguments?.[GLUE_KEY_ARGUMENT] === key && r.Id);
      if (ours) return ours;
      nextToken = listed.NextToken;
      if (!nextToken) return undefined;
    }
    return undefined;
  }

  private toJobRun(ref: RunRef, run: GlueJobRun): JobRun {
    return this.jobRun(ref, {
      mapped: mapGlueState(run.JobRunState, run.ErrorMessage),
      startedAt: run.StartedOn?.getTime(),
      finishedAt: run.CompletedOn?.getTime(),
      extras: { jobName: ref.jobName! },
    });
  }

  protected consoleUrl(ref: RunRef): string {
    return this.console('gluestudio', `/job/${encodeURIComponent(ref.jobName!)}/run/${ref.runId}`);
  }
}

export const glueModule: DataJobProviderModule<AwsConnection, GlueBlock> = {
  block: GlueBlock,
  create: (connection, context) => new GlueProvider(connection, context),
};
