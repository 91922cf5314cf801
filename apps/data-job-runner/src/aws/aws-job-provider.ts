import { UpstreamError, type Redactor } from '@app/plugin-kit';
import { clipMasked } from '@app/plugin-kit/upstream/error-detail.js';
import type { JobRun, MappedState, RunRef } from '../job/job-run.js';
import type { DataJobProvider, PollRequest, StartRequest } from '../providers/data-job-provider.js';
import { awsCall, awsErrorCode } from './aws-call.js';
import type { AwsConnection } from './aws-settings.js';
import { lazyAwsClient, type AwsClientConfig } from './lazy-aws-client.js';

/** What an SDK command resolves to (its `Output`), read from the command's middleware handler. */
type OutputOf<C> = C extends {
  resolveMiddleware(...args: never[]): (...args: never[]) => Promise<{ output: infer O }>;
}
  ? O
  : never;

interface SdkClient {
  send(command: unknown, options: { abortSignal: AbortSignal }): Promise<unknown>;
}

/** A backend's SDK package, imported with the first call, and how its client is made. */
export interface AwsSdk<S> {
  load: () => Promise<S>;
  client: (sdk: S, config: AwsClientConfig) => SdkClient;
}

/** What a backend reads from a describe reply. */
export interface AwsRunView {
  mapped: MappedState;
  startedAt?: number;
  finishedAt?: number;
  extras?: Record<string, string>;
  raw?: unknown;
}

/**
 * The base of the AWS backends: one lazily made SDK client per connection, every call through `send` (the
 * SDK's failure as an UpstreamError naming the backend and the operation), and the JobRun of a reply with its
 * console link and a bounded message. A backend says how it keeps a step to one run, its calls and its mapping.
 */
export abstract class AwsJobProvider<S, B> implements DataJobProvider<B> {
  private readonly aws: () => Promise<{ sdk: S; client: SdkClient }>;

  constructor(
    /** The upstream's name in messages (`batch`, `stepFunctions`). */
    protected readonly upstream: string,
    protected readonly connection: AwsConnection,
    context: { timeoutMs: number; redactor: Redactor },
    sdk: AwsSdk<S>,
  ) {
    this.aws = lazyAwsClient(sdk.load, sdk.client, connection, context);
  }

  abstract start(request: StartRequest<B>): Promise<JobRun>;
  abstract poll(request: PollRequest<B>): Promise<JobRun>;
  abstract cancel(ref: RunRef, signal: AbortSignal): Promise<void>;
  protected abstract consoleUrl(ref: RunRef): string;

  /** One SDK call; its failure, after the SDK's retries, an UpstreamError. */
  protected send<C>(operation: string, command: (sdk: S) => C, signal: AbortSignal): Promise<OutputOf<C>> {
    return awsCall(this.upstream, operation, async () => {
      const { sdk, client } = await this.aws();
      return (await client.send(command(sdk), { abortSignal: signal })) as OutputOf<C>;
    });
  }

  /** A call whose error `code` means there is nothing left to do (the run is gone, or has ended). */
  protected async sendUnless<C>(
    code: string,
    operation: string,
    command: (sdk: S) => C,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      await this.send(operation, command, signal);
    } catch (err) {
      if (awsErrorCode(err) !== code) throw err;
    }
  }

  /** A member the reply must have (an id, an ARN): without it the reply is an upstream failure. */
  protected returned<T>(value: T | undefined, operation: string, member: string): T {
    if (value === undefined || value === null || value === '')
      throw UpstreamError.permanent(`${this.upstream}: ${operation} returned no ${member}`);
    return value;
  }

  /** The run just started or found, before its first describe. */
  protected provisional(ref: RunRef, upstreamState: string, extras?: Record<string, string>): JobRun {
    return {
      ref,
      url: this.consoleUrl(ref),
      state: 'queued',
      upstreamState,
      provisional: true,
      ...(extras && { extras }),
    };
  }

  protected jobRun(ref: RunRef, { mapped, startedAt, finishedAt, extras, raw }: AwsRunView): JobRun {
    return {
      ref,
      url: this.consoleUrl(ref),
      state: mapped.state,
      upstreamState: mapped.upstreamState,
      unknownState: mapped.unknown,
      message: mapped.message === undefined ? undefined : clipMasked(mapped.message, 500),
      startedAt,
      finishedAt,
      extras,
      ...(raw !== undefined && { raw }),
    };
  }

  /** The AWS console page of a service in the connection's region, at `fragment`. */
  protected console(service: string, fragment: string): string {
    const region = this.connection.region;
    return `https://${region}.console.aws.amazon.com/${service}/home?region=${region}#${fragment}`;
  }
}
