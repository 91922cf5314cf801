import type { BuildRun, BuildStatus } from '../../build/build-run.js';
import type { JenkinsBuild, JenkinsQueueItem } from './jenkins-api.js';

/**
 * Jenkins result → normalised status. Only a build with `building: false` has a final result (a Pipeline
 * can show a provisional UNSTABLE while still running).
 *
 * | building / result          | status    |
 * |----------------------------|-----------|
 * | building: true, or null    | running   |
 * | SUCCESS                    | succeeded |
 * | UNSTABLE                   | failed (succeeded with unstableIsSuccess) |
 * | FAILURE, NOT_BUILT         | failed    |
 * | ABORTED                    | cancelled |
 */
export function jenkinsBuildStatus(
  build: Pick<JenkinsBuild, 'building' | 'result'>,
  unstableIsSuccess: boolean,
): BuildStatus | undefined {
  if (build.building || build.result === null || build.result === undefined) return 'running';
  switch (build.result) {
    case 'SUCCESS':
      return 'succeeded';
    case 'UNSTABLE':
      return unstableIsSuccess ? 'succeeded' : 'failed';
    case 'FAILURE':
    case 'NOT_BUILT':
      return 'failed';
    case 'ABORTED':
      return 'cancelled';
    default:
      return undefined; // unknown word: keep polling, let a timeout apply
  }
}

export function runFromBuild(build: JenkinsBuild, jobLabel: string, unstableIsSuccess: boolean): BuildRun {
  const status = jenkinsBuildStatus(build, unstableIsSuccess) ?? 'running';
  const finished = status !== 'running';
  return {
    provider: 'jenkins',
    id: String(build.number),
    url: build.url,
    status,
    result: finished ? (build.result ?? '') : '',
    label: `${jobLabel} #${build.number}`,
    startedAt: build.timestamp,
    ...(finished && build.duration !== undefined && { durationMs: build.duration }),
    ...(finished &&
      build.timestamp !== undefined &&
      build.duration !== undefined && { finishedAt: build.timestamp + build.duration }),
  };
}

/** What a queue item says: still waiting (with Jenkins' own reason), cancelled, or turned into a build. */
export function runFromQueueItem(item: JenkinsQueueItem, jobLabel: string, jobUrl: string): BuildRun {
  const left = (item._class ?? '').endsWith('$LeftItem');
  if (left && item.cancelled) {
    return {
      provider: 'jenkins',
      id: '',
      url: jobUrl,
      status: 'cancelled',
      result: 'CANCELLED',
      label: `${jobLabel} (queue item ${item.id})`,
    };
  }
  if (item.executable) {
    const n = item.executable.number;
    return {
      provider: 'jenkins',
      id: String(n),
      url: item.executable.url,
      status: 'running',
      result: '',
      label: `${jobLabel} #${n}`,
    };
  }
  const why = item.why?.trim() || (left ? 'leaving the queue' : 'waiting in the queue');
  return {
    provider: 'jenkins',
    id: '',
    url: jobUrl,
    status: 'queued',
    result: '',
    label: `${jobLabel} (queue item ${item.id})`,
    waitingReason: item.stuck ? `${why}; stuck` : why,
  };
}
