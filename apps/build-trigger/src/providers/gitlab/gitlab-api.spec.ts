import { gitlabErrorDetail, projectId } from './gitlab-api.js';

describe('GitLab API helpers', () => {
  it('encodes a project path exactly once and keeps numeric ids', () => {
    expect(projectId('group/sub/proj')).toBe('group%2Fsub%2Fproj');
    expect(projectId('my.group/my-proj_1')).toBe('my.group%2Fmy-proj_1');
    expect(projectId(42)).toBe('42');
    expect(projectId('42')).toBe('42');
  });

  it('reads the three error body shapes and plain text', () => {
    expect(gitlabErrorDetail({ message: '404 Project Not Found' })).toBe('404 Project Not Found');
    expect(gitlabErrorDetail({ message: { base: ['Reference not found'] } })).toBe('Reference not found');
    expect(gitlabErrorDetail({ message: { ref: ['is invalid'], base: ['x'] } })).toBe('ref: is invalid; x');
    expect(gitlabErrorDetail({ error: 'ref is missing' })).toBe('ref is missing');
    expect(gitlabErrorDetail('Retry later\n')).toBe('Retry later');
    expect(gitlabErrorDetail(undefined)).toBeUndefined();
  });
});
