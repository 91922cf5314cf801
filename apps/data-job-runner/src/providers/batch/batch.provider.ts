import type { JobDetail } from '@aws-sdk/client-batch';
import type { Redactor } from '@app/plugin-kit';
import { AwsJobProvider } from '../../aws/aws-job-provider.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import { stringList, stringMap } from '../../dto/validators.js';
import type { JobRun, RunRef } from '../../job/job-run.js';
import { BATCH_KEY_TAG, batchJobName } from '../../job/run-keys.js';
import type { DataJobProviderModule, PollRequest, StartRequest } from '../data-job-provider.js';
import { BatchBlock } from './batch-block.dto.js';
import { mapBatchState } from './batch-states.js';

/** The reason TerminateJob is given; a FAILED job with it was stopped by the plugin. */
export const TERMINATE_REASON = 'Argo: stopped by the workflow (timeout or stop)';
/** ListJobs pages searched for the job of an execution before one is submitted. */
const LOOKUP_PAGES = 5;

/**
 * AWS Batch jobs. Batch has no idempotency token, so the job is named from the execution key and tagged with
 * the key: before submitting, ListJobs on the queue with a JOB_NAME filter (every status) finds a job of that
 * name, and DescribeJobs confirms the tag; that job is followed instead of submitting another.
 */
export class BatchProvider extends AwsJobProvider<typeof import('@aws-sdk/client-batch'), BatchBlock> {
  constructor(connection: AwsConnection, context: { timeoutMs: number; redactor: Redactor }) {
    super('batch', connection, context, {
      load: () => import('@aws-sdk/client-batch'),
      client: (sdk, config) => new sdk.BatchClient(config as never),
    });
  }

  async start({ block, key, signal }: StartRequest<BatchBlock>): Promise<JobRun> {
    const jobName = batchJobName(key, block.name);
    const found = await this.find(block.jobQueue, jobName, key, signal);
    if (found) return this.toJobRun({ runId: found.jobId! }, found, false);
    const submitted = await this.send(
      'SubmitJob',
      (sdk) =>
        new sdk.SubmitJobCommand({
          jobName,
          jobQueue: block.jobQueue,
          jobDefinition: block.jobDefinition,
          parameters: stringMap(block.parameters),
          arrayProperties: block.arraySize === undefined ? undefined : { size: block.arraySize },
          containerOverrides:
            block.command === undefined && block.environment === undefined
              ? undefined
              : {
                  command: stringList(block.command),
                  environment: Object.entries(stringMap(block.environment) ?? {}).map(([name, value]) => ({
                    name,
                    value,
                  })),
                },
          timeout:
            block.attemptDurationSeconds === undefined
              ? undefined
              : { attemptDurationSeconds: block.attemptDurationSeconds },
          retryStrategy: block.retryAttempts === undefined ? undefined : { attempts: block.retryAttempts },
          tags: { ...stringMap(block.tags), [BATCH_KEY_TAG]: key },
          propagateTags: block.propagateTags,
        }),
      signal,
    );
    const runId = this.returned(submitted.jobId, 'SubmitJob', 'jobId');
    return this.provisional({ runId }, 'SUBMITTED', { jobName });
  }

  async poll({ ref, signal, cancelRequested }: PollRequest<BatchBlock>): Promise<JobRun> {
    const [job] = await this.describe([ref.runId], signal);
    if (!job)
      return {
        ref,
        state: cancelRequested ? 'cancelled' : 'failed',
        upstreamState: 'not found',
        message: `AWS Batch no longer knows job ${ref.runId} (it keeps jobs for about 7 days after they end)`,
      };
    return this.toJobRun(ref, job, cancelRequested);
  }

  /** Terminates the job (it ends FAILED with the plugin's reason); a job that has ended is left as it is. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    await this.send(
      'TerminateJob',
      (sdk) => new sdk.TerminateJobCommand({ jobId: ref.runId, reason: TERMINATE_REASON }),
      signal,
    );
  }

  /** The job of this execution, if one was submitted: by name on the queue, confirmed by its key tag. */
  private async find(
    jobQueue: string,
    jobName: string,
    key: string,
    signal: AbortSignal,
  ): Promise<JobDetail | undefined> {
    let nextToken: string | undefined;
    const ids: string[] = [];
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const listed = await this.send(
        'ListJobs',
        (sdk) =>
          new sdk.ListJobsCommand({
            jobQueue,
            filters: [{ name: 'JOB_NAME', values: [jobName] }],
            nextToken,
          }),
        signal,
      );
      ids.push(
        ...(listed.jobSummaryList ?? []).filter((j) => j.jobName === jobName && j.jobId).map((j) => j.jobId!),
      );
      nextToken = listed.nextToken;
      if (!nextToken) break;
    }
    // DescribeJobs takes at most 100 ids.
    for (let i = 0; i < ids.length; i += 100) {
      const ours = (await this.describe(ids.slice(i, i + 100), signal)).find(
        (j) => j.tags?.[BATCH_KEY_TAG] === key,
      );
      if (ours) return ours;
    }
    return undefined;
  }

  private async describe(jobIds: string[], signal: AbortSignal): Promise<JobDetail[]> {
    const { jobs } = await this.send(
      'DescribeJobs',
      (sdk) => new sdk.DescribeJobsCommand({ jobs: jobIds }),
      signal,
    );
    return jobs ?? [];
  }

  private toJobRun(ref: RunRef, job: JobDetail, cancelRequested: boolean): JobRun {
    const mapped = mapBatchState(job.status, {
      statusReason: job.statusReason,
      containerReason: job.container?.reason,
      exitCode: job.container?.exitCode,
      terminatedByUs: cancelRequested || job.statusReason === TERMINATE_REASON,
    });
    const extras: Record<string, string> = {};
    if (job.jobName) extras.jobName = job.jobName;
    if (job.container?.logStreamName) extras.logStreamName = job.container.logStreamName;
    return this.jobRun(ref, {
      mapped,
      startedAt: job.startedAt ?? job.createdAt,
      finishedAt: job.stoppedAt,
      extras,
    });
  }

  protected consoleUrl(ref: RunRef): string {
    return this.console('batch', `jobs/detail/${ref.runId}`);
  }
}

export const batchModule: DataJobProviderModule<AwsConnection, BatchBlock> = {
  block: BatchBlock,
  create: (connection, context) => new BatchProvider(connection, context),
};
