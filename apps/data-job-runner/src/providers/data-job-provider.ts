import type {
  Credential,
  PluginLogger,
  UpstreamContext,
  UpstreamProviderDefinition,
  UpstreamProviderModule,
  WorkflowMeta,
} from '@app/plugin-kit';
import type { JobRun, RunExtras, RunRef } from '../job/job-run.js';

export interface StartRequest<B> {
  block: B;
  /** The kit's execution key (sha256 hex): the source of the upstream's idempotency key or run name. */
  key: string;
  workflow: WorkflowMeta;
  signal: AbortSignal;
  logger: PluginLogger;
}

export interface PollRequest<B> {
  ref: RunRef;
  block: B;
  signal: AbortSignal;
  /** We asked the upstream to cancel this run (Livy: a 404 then means "deleted by us"). */
  cancelRequested: boolean;
  /** Output parameters the template declares: extras that cost a request are fetched only when asked for. */
  declaredOutputs: ReadonlySet<string>;
}

/**
 * One upstream. `start` must be idempotent through the upstream's own key: called again for the same execution
 * key (a restarted sidecar has no memory), it returns the run the first call started. `poll` makes exactly one
 * request. `finish` runs once, when a run has reached a terminal state, for cheap extras (at most one request).
 * Every upstream failure is an UpstreamError (transient or permanent) with a message free of credentials.
 */
export interface DataJobProvider<B> {
  start(request: StartRequest<B>): Promise<JobRun>;
  poll(request: PollRequest<B>): Promise<JobRun>;
  cancel(ref: RunRef, signal: AbortSignal): Promise<void>;
  finish?(run: JobRun, request: PollRequest<B>): Promise<RunExtras>;
}

/** A provider's Nest-free side: the provider of one connection the admin configured. */
export type DataJobProviderModule<C, B extends object = object> = UpstreamProviderModule<
  C,
  DataJobProvider<unknown>,
  Pick<UpstreamContext, 'timeoutMs' | 'redactor'>,
  B
>;

/** One provider of the data-job runner: the kit's upstream provider, with its label (messages say it). */
export interface DataJobProviderDefinition<
  V extends object = object,
  C = unknown,
  B extends object = object,
> extends UpstreamProviderDefinition<V, C, DataJobProviderModule<C, B>> {
  label: string;
}

export function defineDataJobProvider<V extends object, C, B extends object>(
  definition: DataJobProviderDefinition<V, C, B>,
): DataJobProviderDefinition<V, C, B> {
  return definition;
}

/** A token, and a password with its user, as the redactor takes them. */
export const tokenCredential = (secret: string | undefined): Credential[] => (secret ? [{ secret }] : []);
export const loginCredential = (c: { username?: string; password?: string }): Credential[] =>
  c.password ? [{ secret: c.password, user: c.username }] : [];
