import type { RemoteRunDriver } from '@app/plugin-kit';
import {
  buildOutputs,
  finishedMessage,
  progressMessage,
  startedMessage,
  timedOutMessage,
} from './build-messages.js';
import type { BuildProvider, BuildRequest } from './build-provider.js';
import { buildOutcome, type BuildRun } from './build-run.js';

const UNSTABLE_NOTE = 'UNSTABLE counts as a failure; set unstableIsSuccess: true to accept it';

/**
 * A CI build as a remote run: never a blind start (a build an earlier process started for this execution is
 * found again by its correlation key), exactly one provider request per poll, messages that name the upstream
 * result and link the run.
 */
export function buildDriver(
  provider: BuildProvider,
  request: BuildRequest,
  timeout: string | undefined,
): RemoteRunDriver<unknown, BuildRun> {
  const report = (run: BuildRun, message: string) => ({ message, outputs: buildOutputs(run) });
  return {
    async begin() {
      const found = await provider.find(request);
      if (found) return { ...found, adopted: true, startedAt: found.run.startedAt };
      return { ...(await provider.start(request)), adopted: false };
    },
    poll: (ref) => provider.poll(request, ref),
    cancel: (ref) => provider.cancel(request, ref),
    outcome: buildOutcome,
    describe: (run) => ({
      provider: run.provider,
      build: run.label,
      id: run.id,
      url: run.url,
      status: run.status,
    }),
    progress: (run) => report(run, progressMessage(run)),
    started: (run, _state, adopted) => report(run, startedMessage(run, adopted === true)),
    finished(run) {
      const unstable = run.provider === 'jenkins' && run.result === 'UNSTABLE' && run.status === 'failed';
      return report(run, finishedMessage(run, unstable ? UNSTABLE_NOTE : undefined));
    },
    timedOut({ run: last }, { after, error }) {
      const run: BuildRun = { ...last, ...after, status: 'cancelled', result: after?.result || last.result };
      const problem =
        error === undefined ? undefined : error instanceof Error ? error.message : String(error);
      const message = timedOutMessage(run, timeout!, problem === undefined) + (problem ? `: ${problem}` : '');
      return report(run, message);
    },
  };
}
