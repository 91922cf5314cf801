import {
  runOutcome,
  type ExecutionContext,
  type PickedProvider,
  type RemoteRunDriver,
  type RemoteRunState,
} from '@app/plugin-kit';
import type { BuildConfig } from '../dto/build-config.dto.js';
import {
  buildOutputs,
  finishedMessage,
  progressMessage,
  startedMessage,
  timedOutMessage,
} from './build-messages.js';
import type { BuildProvider, BuildRequest } from './build-provider.js';
import type { BuildRun } from './build-run.js';
import { correlationKey } from './correlation-key.js';

const UNSTABLE_NOTE = 'UNSTABLE counts as a failure; set unstableIsSuccess: true to accept it';

/** The provider's handle (queue id / build number, run id, pipeline id) and the last observed build. */
export type BuildState = RemoteRunState<unknown, BuildRun>;

/**
 * A CI build as a remote run: never a blind start (a build an earlier process started for this execution is
 * found again by its correlation key), exactly one provider request per poll, messages that name the upstream
 * result and link the run.
 */
export class BuildDriver implements RemoteRunDriver<unknown, BuildRun> {
  private readonly provider: BuildProvider;
  private readonly request: BuildRequest;
  private readonly timeout: string | undefined;

  constructor(
    { key, config, logger }: ExecutionContext<BuildConfig, BuildState>,
    { key: provider, block, client }: PickedProvider<BuildProvider>,
  ) {
    this.provider = client;
    this.timeout = config.timeout;
    this.request = {
      provider,
      spec: block,
      correlationKey: correlationKey(key),
      unstableIsSuccess: config.unstableIsSuccess,
      wait: config.wait,
      logger,
    };
  }

  async begin() {
    const found = await this.provider.find(this.request);
    if (found) return { ...found, adopted: true, startedAt: found.run.startedAt };
    return { ...(await this.provider.start(this.request)), adopted: false };
  }

  poll(ref: unknown) {
    return this.provider.poll(this.request, ref);
  }

  cancel(ref: unknown) {
    return this.provider.cancel(this.request, ref);
  }

  outcome({ status }: BuildRun) {
    return runOutcome(status);
  }

  describe(run: BuildRun) {
    return { provider: run.provider, build: run.label, id: run.id, url: run.url, status: run.status };
  }

  progress(run: BuildRun) {
    return this.report(run, progressMessage(run));
  }

  started(run: BuildRun, _state: BuildState, adopted: boolean | undefined) {
    return this.report(run, startedMessage(run, adopted === true));
  }

  finished(run: BuildRun) {
    const unstable = run.provider === 'jenkins' && run.result === 'UNSTABLE' && run.status === 'failed';
    return this.report(run, finishedMessage(run, unstable ? UNSTABLE_NOTE : undefined));
  }

  timedOut({ run: last }: BuildState, { after, error }: { after?: BuildRun; error?: unknown }) {
    const run: BuildRun = { ...last, ...after, status: 'cancelled', result: after?.result || last.result };
    const problem = error === undefined ? undefined : error instanceof Error ? error.message : String(error);
    const message =
      timedOutMessage(run, this.timeout!, problem === undefined) + (problem ? `: ${problem}` : '');
    return this.report(run, message);
  }

  private report(run: BuildRun, message: string) {
    return { message, outputs: buildOutputs(run) };
  }
}
