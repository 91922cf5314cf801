import { jenkinsBuildStatus, runFromBuild, runFromQueueItem } from './jenkins-state.js';

describe('Jenkins state mapping', () => {
  it.each([
    [true, null, false, 'running'],
    [true, 'UNSTABLE', false, 'running'], // a Pipeline's provisional result while still building
    [false, null, false, 'running'], // post-production: no result yet
    [false, 'SUCCESS', false, 'succeeded'],
    [false, 'UNSTABLE', false, 'failed'],
    [false, 'UNSTABLE', true, 'succeeded'],
    [false, 'FAILURE', true, 'failed'],
    [false, 'NOT_BUILT', false, 'failed'],
    [false, 'ABORTED', false, 'cancelled'],
    [false, 'SOMETHING_NEW', false, undefined],
  ] as const)('building=%s result=%s unstableIsSuccess=%s → %s', (building, result, unstable, status) => {
    expect(jenkinsBuildStatus({ building, result }, unstable)).toBe(status);
  });

  it('reads a finished build with its duration', () => {
    const run = runFromBuild(
      {
        number: 42,
        url: 'https://j/job/app/42/',
        building: false,
        result: 'UNSTABLE',
        duration: 90_000,
        timestamp: 1_000,
      },
      'app',
      false,
    );
    expect(run).toEqual({
      provider: 'jenkins',
      id: '42',
      url: 'https://j/job/app/42/',
      status: 'failed',
      result: 'UNSTABLE',
      label: 'app #42',
      startedAt: 1_000,
      durationMs: 90_000,
      finishedAt: 91_000,
    });
  });

  it('hides a provisional result and the zero duration of a running build', () => {
    const run = runFromBuild(
      { number: 3, url: 'u', building: true, result: 'UNSTABLE', duration: 0, timestamp: 5 },
      'app',
      false,
    );
    expect(run).toMatchObject({ status: 'running', result: '' });
    expect(run.durationMs).toBeUndefined();
  });

  it('shows why a queue item waits, and recognises cancelled items and executables', () => {
    const waiting = runFromQueueItem(
      { _class: 'hudson.model.Queue$WaitingItem', id: 9, why: 'Waiting for next available executor' },
      'app',
      'https://j/job/app/',
    );
    expect(waiting).toMatchObject({
      status: 'queued',
      id: '',
      url: 'https://j/job/app/',
      waitingReason: 'Waiting for next available executor',
    });
    const stuck = runFromQueueItem(
      { _class: 'hudson.model.Queue$BuildableItem', id: 9, why: 'No node with label linux', stuck: true },
      'app',
      '',
    );
    expect(stuck.waitingReason).toBe('No node with label linux; stuck');
    const cancelled = runFromQueueItem(
      { _class: 'hudson.model.Queue$LeftItem', id: 9, cancelled: true, executable: null },
      'app',
      '',
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', result: 'CANCELLED' });
    const handoff = runFromQueueItem(
      { _class: 'hudson.model.Queue$LeftItem', id: 9, cancelled: false, executable: null },
      'app',
      '',
    );
    expect(handoff).toMatchObject({ status: 'queued', waitingReason: 'leaving the queue' });
    const left = runFromQueueItem(
      {
        _class: 'hudson.model.Queue$LeftItem',
        id: 9,
        cancelled: false,
        executable: { number: 4, url: 'https://j/job/app/4/' },
      },
      'app',
      '',
    );
    expect(left).toMatchObject({ status: 'running', id: '4', url: 'https://j/job/app/4/', label: 'app #4' });
  });
});
