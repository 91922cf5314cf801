import { gitlabPipelineStatus, runFromPipeline } from './gitlab-state.js';

describe('GitLab pipeline state mapping', () => {
  it.each([
    ['created', 'queued'],
    ['pending', 'queued'],
    ['waiting_for_resource', 'queued'],
    ['preparing', 'queued'],
    ['running', 'running'],
    ['canceling', 'running'],
    ['waiting_for_callback', 'running'],
    ['manual', 'running'],
    ['scheduled', 'running'],
    ['success', 'succeeded'],
    ['failed', 'failed'],
    ['skipped', 'failed'],
    ['canceled', 'cancelled'],
    ['from_the_future', undefined],
  ])('%s → %s', (status, expected) => {
    expect(gitlabPipelineStatus(status)).toBe(expected);
  });

  it('says why a pipeline is blocked, and reads duration and warnings', () => {
    const manual = runFromPipeline(
      { id: 61, status: 'manual', web_url: 'https://gl/g/p/-/pipelines/61' },
      'g/p',
    );
    expect(manual).toMatchObject({
      status: 'running',
      result: 'manual',
      label: 'g/p pipeline 61',
      waitingReason: 'blocked: waiting for a manual action',
    });
    expect(runFromPipeline({ id: 1, status: 'scheduled', web_url: 'u' }, 'g/p').waitingReason).toBe(
      'blocked: waiting for a delayed job',
    );
    expect(
      runFromPipeline({ id: 1, status: 'waiting_for_resource', web_url: 'u' }, 'g/p').waitingReason,
    ).toBe('waiting for a resource group');
    const done = runFromPipeline(
      {
        id: 2,
        status: 'success',
        web_url: 'u',
        duration: 90,
        started_at: '2026-01-01T00:00:00Z',
        detailed_status: { group: 'success-with-warnings' },
      },
      'g/p',
    );
    expect(done).toMatchObject({ status: 'succeeded', result: 'success-with-warnings', durationMs: 90_000 });
    expect(runFromPipeline({ id: 3, status: 'skipped', web_url: 'u' }, 'g/p').waitingReason).toBe(
      'skipped: nothing ran',
    );
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a status named like an Object.prototype property (%s) has no waiting reason',
    (status) => {
      expect(runFromPipeline({ id: 4, status, web_url: 'u' }, 'g/p').waitingReason).toBeUndefined();
    },
  );
});
