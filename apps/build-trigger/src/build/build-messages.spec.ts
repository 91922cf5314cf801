import type { BuildRun } from './build-run.js';
import {
  buildOutputs,
  finishedMessage,
  formatBuildDuration,
  progressMessage,
  timedOutMessage,
} from './build-messages.js';

const run: BuildRun = {
  provider: 'jenkins',
  id: '42',
  url: 'https://j/job/app/42/',
  status: 'failed',
  result: 'UNSTABLE',
  label: 'app #42',
};

describe('build messages and outputs', () => {
  it.each([
    [undefined, ''],
    [-1, ''],
    [0, '0s'],
    [400, '0s'],
    [1_600, '2s'],
    [90_000, '1m30s'],
    [3_600_000 + 5_000, '1h0m5s'],
  ])('duration %s ms → %s', (ms, text) => {
    expect(formatBuildDuration(ms)).toBe(text);
  });

  it('always gives all six outputs, with the duration from the upstream or the timestamps', () => {
    expect(buildOutputs({ ...run, durationMs: 90_000 })).toEqual({
      provider: 'jenkins',
      id: '42',
      url: 'https://j/job/app/42/',
      status: 'failed',
      result: 'UNSTABLE',
      duration: '1m30s',
    });
    expect(buildOutputs({ ...run, startedAt: 1000, finishedAt: 61_000 }).duration).toBe('1m0s');
    expect(buildOutputs({ ...run, id: '', url: '', result: '' })).toEqual({
      provider: 'jenkins',
      id: '',
      url: '',
      status: 'failed',
      result: '',
      duration: '',
    });
  });

  it('names the result and links the run', () => {
    expect(finishedMessage({ ...run, durationMs: 90_000 }, 'why')).toBe(
      'jenkins: app #42 finished UNSTABLE after 1m30s (why): https://j/job/app/42/',
    );
    expect(finishedMessage({ ...run, status: 'cancelled', result: 'ABORTED' })).toBe(
      'jenkins: app #42 was cancelled ABORTED: https://j/job/app/42/',
    );
    expect(
      progressMessage({ ...run, status: 'queued', waitingReason: 'Waiting for next available executor' }),
    ).toBe('jenkins: app #42 queued (Waiting for next available executor): https://j/job/app/42/');
    expect(timedOutMessage(run, '10m', true)).toBe(
      'jenkins: app #42 timed out after 10m; cancelled https://j/job/app/42/',
    );
  });
});
