import type {
  PluginLogger,
  RunObservation,
  UpstreamContext,
  UpstreamProviderDefinition,
  UpstreamProviderModule,
} from '@app/plugin-kit';
import type { BuildRun } from './build-run.js';

/** Everything a provider needs for one call: the provider block of the body and the correlation key. */
export interface BuildRequest<Spec = unknown> {
  provider: string;
  /** The validated provider block (JenkinsBuildSpec, GitHubBuildSpec or GitLabBuildSpec). */
  spec: Spec;
  /** Stable per execution, survives restarts: sent upstream so the build can be found again. */
  correlationKey: string;
  /** Jenkins: UNSTABLE counts as success. */
  unstableIsSuccess: boolean;
  /** The caller will poll the build (false: start only). */
  wait: boolean;
  logger: PluginLogger;
}

/**
 * A build being followed: `ref` is the provider's own JSON-serialisable handle (queue id, build number,
 * run id, ...), kept in the execution state between calls; `run` is the last thing observed; `soon` asks for
 * the next poll to come soon (the handle changed, e.g. a run id is being looked up).
 */
export type Tracked<Ref = unknown> = RunObservation<Ref, BuildRun>;

/**
 * One upstream CI system. The handler calls `find` then `start` on the first call of an execution (never a
 * blind start: a build started by an earlier process is found again by its correlation key), then exactly
 * one `poll` per later call, and `cancel` on timeout or shutdown.
 */
export interface BuildProvider<Spec = unknown, Ref = unknown> {
  readonly name: string;
  /** A build an earlier call (maybe another process) started for this correlation key, if the upstream can tell. */
  find(request: BuildRequest<Spec>): Promise<Tracked<Ref> | undefined>;
  start(request: BuildRequest<Spec>): Promise<Tracked<Ref>>;
  /** Exactly one upstream request. */
  poll(request: BuildRequest<Spec>, ref: Ref): Promise<Tracked<Ref>>;
  /** Asks the upstream to stop the build; returns the run when the upstream says what state it is in. */
  cancel(request: BuildRequest<Spec>, ref: Ref): Promise<BuildRun | undefined>;
}

/** A CI system's Nest-free side: the provider of one server the admin configured. */
export type BuildProviderModule<S, V = object, B extends object = object> = UpstreamProviderModule<
  S,
  BuildProvider,
  Pick<UpstreamContext<V>, 'timeoutMs' | 'variables'>,
  B
>;

/** One CI system of the build trigger: the kit's upstream provider, its upstreams being servers. */
export type BuildProviderDefinition<
  V extends object = object,
  S = unknown,
  B extends object = object,
> = UpstreamProviderDefinition<V, S, BuildProviderModule<S, V, B>>;

export function defineBuildProvider<V extends object, S, B extends object>(
  definition: BuildProviderDefinition<V, S, B>,
): BuildProviderDefinition<V, S, B> {
  return definition;
}
