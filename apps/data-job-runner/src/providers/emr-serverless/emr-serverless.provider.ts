import type { EMRServerlessClient, JobDriver, JobRun as EmrJobRun } from '@aws-sdk/client-emr-serverless';
import { UpstreamError, type Redactor } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import { awsCall, awsErrorCode } from '../../aws/aws-call.js';
import { lazyAwsClient } from '../../aws/lazy-aws-client.js';
import type { AwsConnection } from '../../aws/aws-settings.js';
import { stringList, stringMap } from '../../dto/validators.js';
import type { JobRun, RunRef } from '../../job/job-run.js';
import { emrServerlessClientToken } from '../../job/run-keys.js';
import type {
  DataJobProvider,
  DataJobProviderModule,
  PollRequest,
  StartRequest,
} from '../data-job-provider.js';
import type { EmrServerlessBlock } from './emr-serverless-block.dto.js';
import { mapEmrServerlessState } from './emr-serverless-states.js';

const UPSTREAM = 'emrServerless';

/**
 * Amazon EMR Serverless job runs. One job run per step through StartJobRun's `clientToken`, derived from the
 * execution key: the same token returns the job run it started.
 */
export class EmrServerlessProvider implements DataJobProvider<EmrServerlessBlock> {
  private readonly aws: () => Promise<{
    sdk: typeof import('@aws-sdk/client-emr-serverless');
    client: EMRServerlessClient;
  }>;

  constructor(
    private readonly connection: AwsConnection,
    context: { timeoutMs: number; redactor: Redactor },
  ) {
    this.aws = lazyAwsClient(
      () => import('@aws-sdk/client-emr-serverless'),
      (sdk, config) => new sdk.EMRServerlessClient(config as never),
      connection,
      context,
    );
  }

  async start({ block, key, signal }: StartRequest<EmrServerlessBlock>): Promise<JobRun> {
    const started = await awsCall(UPSTREAM, 'StartJobRun', async () => {
      const { sdk, client } = await this.aws();
      return client.send(
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
        { abortSignal: signal },
      );
    });
    if (!started.jobRunId) throw UpstreamError.permanent(`${UPSTREAM}: StartJobRun returned no jobRunId`);
    const ref = { runId: started.jobRunId, applicationId: block.applicationId };
    return { ref, url: this.consoleUrl(ref), state: 'queued', upstreamState: 'SUBMITTED', provisional: true };
  }

  async poll({ ref, signal }: PollRequest<EmrServerlessBlock>): Promise<JobRun> {
    const { jobRun } = await awsCall(UPSTREAM, 'GetJobRun', async () => {
      const { sdk, client } = await this.aws();
      return client.send(
        new sdk.GetJobRunCommand({ applicationId: ref.applicationId, jobRunId: ref.runId }),
        {
          abortSignal: signal,
        },
      );
    });
    if (!jobRun) throw UpstreamError.permanent(`${UPSTREAM}: GetJobRun returned no jobRun`);
    return this.toJobRun(ref, jobRun);
  }

  /** Cancels the job run (it goes CANCELLING → CANCELLED); one that no longer exists needs nothing. */
  async cancel(ref: RunRef, signal: AbortSignal): Promise<void> {
    try {
      await awsCall(UPSTREAM, 'CancelJobRun', async () => {
        const { sdk, client } = await this.aws();
        return client.send(
          new sdk.CancelJobRunCommand({ applicationId: ref.applicationId, jobRunId: ref.runId }),
          {
            abortSignal: signal,
          },
        );
      });
    } catch (err) {
      if (awsErrorCode(err) !== 'ResourceNotFoundException') throw err;
    }
  }

  private toJobRun(ref: RunRef, run: EmrJobRun): JobRun {
    const mapped = mapEmrServerlessState(run.state, run.stateDetails);
    const terminal =
      mapped.state === 'succeeded' || mapped.state === 'failed' || mapped.state === 'cancelled';
    return {
      ref,
      url: this.consoleUrl(ref),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: mapped.message === undefined ? undefined : clipMasked(mapped.message, 500),
      startedAt: run.createdAt?.getTime(),
      finishedAt: terminal ? (run.endedAt ?? run.updatedAt)?.getTime() : undefined,
      extras: { applicationId: ref.applicationId! },
    };
  }

  private consoleUrl(ref: RunRef): string {
    const region = this.connection.region;
    return `https://${region}.console.aws.amazon.com/emr/home?region=${region}#/serverless-applications/${ref.applicationId}/job-runs/${ref.runId}`;
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

export const emrServerlessModule: DataJobProviderModule<AwsConnection> = {
  create: (connection, context) => new EmrServerlessProvider(connection, context),
};
