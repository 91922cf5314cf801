import { jobLabel, jobPath, queueIdFromLocation } from './jenkins-paths.js';

describe('Jenkins paths', () => {
  it.each([
    ['app', undefined, '/job/app'],
    ['folder/sub/app', undefined, '/job/folder/job/sub/job/app'],
    ['/folder/app/', undefined, '/job/folder/job/app'],
    ['my folder/app #2', undefined, '/job/my%20folder/job/app%20%232'],
    ['org/repo', 'main', '/job/org/job/repo/job/main'],
    // multibranch: the branch job is stored as "feature%2Fx", so the URL segment is encoded twice
    ['org/repo', 'feature/x', '/job/org/job/repo/job/feature%252Fx'],
    ['org/repo', 'release/1.0 rc', '/job/org/job/repo/job/release%252F1.0%2520rc'],
    // a name copied from the Jenkins URL keeps its %2F and is encoded once more
    ['org/repo/feature%2Fx', undefined, '/job/org/job/repo/job/feature%252Fx'],
  ])('%s [%s] → %s', (job, branch, expected) => {
    expect(jobPath(job, branch)).toBe(expected);
  });

  it('labels jobs for messages', () => {
    expect(jobLabel('/folder/app/')).toBe('folder/app');
    expect(jobLabel('org/repo', 'feature/x')).toBe('org/repo [feature/x]');
  });

  it.each([
    ['http://jenkins:8080/queue/item/123/', 123],
    ['https://ci.example.com/prefix/queue/item/7', 7],
    ['http://h/queue/item/42/?x=1', 42],
    ['http://h/job/app/', undefined],
    [undefined, undefined],
  ])('queue id of Location %s → %s', (location, id) => {
    expect(queueIdFromLocation(location)).toBe(id);
  });
});
