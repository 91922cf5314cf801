import type { JobDriver, JobRun as EmrJobRun } from '@aws-sdk/client-emr-serverless';
import type { Redactor } from '@app/plugin-kit';
import { AwsJobProvider } from '../../aws/aws-job-provider.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import { stringList, stringMap } from '../../dto/validators.js';
import { isTerminal, type JobRun, type RunRef } from '../../job/job-run.js';
import { emrServerlessClientToken } from '../../job/run-keys.js';
import type { DataJobProviderModule, PollRequest, StartRequest } from '../data-job-provider.js';
import { EmrServerlessBlock } from './emr-serverless-block.dto.js';
import { mapEmrServerlessState } from './emr-serverless-states.js';

/**
 * Amazon EMR Serverless job runs. One job run per step through StartJobRun's `clientToken`, derived from the
 * execution key: the same token returns the job run it started.
 */
export class EmrServerlessProvider extends AwsJobProvider<
  typeof import('@aws-sdk/client-emr-serverless'),
  EmrServerlessBlock
> {
  constructor(connection: AwsConnection, context: { timeoutMs: number; redactor: Redactor }) {
    super('emrServerless', connection, context, {
      load: () => import('@aws-sdk/client-emr-serverless'),
      client: (sdk, config) => new sdk.EMRServerlessClient(config as never),
    });
  }

  async start({ block, key, signal }: StartRequest<EmrServerlessBlock>): Promise<JobRun> {
    const started = await this.send(
      'StartJobRun',
      (sdk) =>
        new sdk.StartJobRunCommand({
          applicationId: block.applicationId,
          clientToken: emrServerlessClientToken(key),
          executionRoleArn: block.executionRoleArn,
          jobDriver: jobDriver(block),
          configurationOverrides: block.configurationOverrides,
          tags: stringMap(block.tags),
          executionTimeoutMinutes: block.executionTimeoutMinutes,
          name: block.name,
        }),
      signal,
    );
    const runId = this.returned(started.jobRunId, 'StartJobRun', 'jobRunId');
    return this.provisional({ runId, applicationId: block.applicationId }, 'SUBMITTED');
  }

  async poll({ ref, signal }: PollRequest<EmrServerlessBlock>): Promise<JobRun> {
    const { jobRun } = await this.send(
      'GetJobRun',
      (sdk) => new sdk.GetJobRunCommand({ applicationId: ref.applicationId, jobRunId: ref.runId }),
      signal,
    );
    return this.toJobRun(ref, this.returned(jobRun, 'GetJobRun', 'jobRun'));
  }

  /** Cancels the job run (it goes CANCELLING → CANCELLED); one that no longer exists needs nothing. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    await this.sendUnless(
      'ResourceNotFoundException',
      'CancelJobRun',
      (sdk) => new sdk.CancelJobRunCommand({ applicationId: ref.applicationId, jobRunId: ref.runId }),
      signal,
    );
  }

  private toJobRun(ref: RunRef, run: EmrJobRun): JobRun {
    const mapped = mapEmrServerlessState(run.state, run.stateDetails);
    return this.jobRun(ref, {
      mapped,
      startedAt: run.createdAt?.getTime(),
      finishedAt: isTerminal(mapped.state) ? (run.endedAt ?? run.updatedAt)?.getTime() : undefined,
      extras: { applicationId: ref.applicationId! },
    });
  }

  protected consoleUrl(ref: RunRef): string {
    return this.console('emr', `/serverless-applications/${ref.applicationId}/job-runs/${ref.runId}`);
  }
}

function jobDriver(block: EmrServerlessBlock): JobDriver {
  if (block.sparkSubmit)
    return {
      sparkSubmit: {
        entryPoint: block.sparkSubmit.entryPoint,
        entryPointArguments: stringList(block.sparkSubmit.entryPointArguments),
        sparkSubmitParameters: block.sparkSubmit.sparkSubmitParameters,
      },
    };
  return { hive: { ...block.hive! } };
}

export const emrServerlessModule: DataJobProviderModule<AwsConnection, EmrServerlessBlock> = {
  block: EmrServerlessBlock,
  create: (connection, context) => new EmrServerlessProvider(connection, context),
};
