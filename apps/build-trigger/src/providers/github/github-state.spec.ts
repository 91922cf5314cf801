import { githubRunStatus, runFromWorkflowRun } from './github-state.js';

describe('GitHub run state mapping', () => {
  it.each([
    ['requested', null, 'queued'],
    ['queued', null, 'queued'],
    ['pending', null, 'queued'],
    ['waiting', null, 'queued'],
    ['in_progress', null, 'running'],
    ['completed', 'success', 'succeeded'],
    ['completed', 'neutral', 'succeeded'],
    ['completed', 'skipped', 'succeeded'],
    ['completed', 'cancelled', 'cancelled'],
    ['completed', 'failure', 'failed'],
    ['completed', 'timed_out', 'failed'],
    ['completed', 'action_required', 'failed'],
    ['completed', 'stale', 'failed'],
    ['completed', 'startup_failure', 'failed'],
    ['completed', null, undefined],
    ['completed', 'brand_new', undefined],
    ['something', null, undefined],
  ])('%s / %s → %s', (status, conclusion, expected) => {
    expect(githubRunStatus(status, conclusion)).toBe(expected);
  });

  it('reads times and explains a run waiting for an environment approval', () => {
    const waiting = runFromWorkflowRun(
      {
        id: 5,
        status: 'waiting',
        conclusion: null,
        html_url: 'https://github.com/o/r/actions/runs/5',
        created_at: '2026-01-01T00:00:00Z',
      },
      'o/r ci.yml',
    );
    expect(waiting).toMatchObject({
      status: 'queued',
      result: 'waiting',
      label: 'o/r ci.yml run 5',
      startedAt: Date.parse('2026-01-01T00:00:00Z'),
    });
    expect(waiting.waitingReason).toMatch(/deployment review/);
    const done = runFromWorkflowRun(
      {
        id: 5,
        status: 'completed',
        conclusion: 'failure',
        html_url: 'u',
        run_started_at: '2026-01-01T00:00:10Z',
        updated_at: '2026-01-01T00:01:40Z',
      },
      'o/r ci.yml',
    );
    expect(done).toMatchObject({
      status: 'failed',
      result: 'failure',
      finishedAt: Date.parse('2026-01-01T00:01:40Z'),
    });
    expect(done.finishedAt! - done.startedAt!).toBe(90_000);
  });

  it('keeps polling a completed run with an unknown conclusion', () => {
    expect(
      runFromWorkflowRun({ id: 1, status: 'completed', conclusion: 'mystery', html_url: 'u' }, 's').status,
    ).toBe('running');
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a status named like an Object.prototype property (%s) has no waiting reason',
    (status) => {
      expect(
        runFromWorkflowRun({ id: 1, status, conclusion: null, html_url: 'u' }, 's').waitingReason,
      ).toBeUndefined();
    },
  );
});
