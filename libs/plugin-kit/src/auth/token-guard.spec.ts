import { describe, expect, it } from '@jest/globals';
import { unreadableTokenProblem } from './token-guard.js';

const error = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('unreadableTokenProblem', () => {
  it("names Argo's owner and mode when the sidecar's group may not read the token", () => {
    const line = unreadableTokenProblem(
      '/var/run/argo/token',
      error('EACCES', "EACCES: permission denied, open '/var/run/argo/token'"),
    );
    expect(line).toContain('cannot be read (EACCES: permission denied');
    expect(line).toContain('mode 0440 for UID 8737 and group 0');
    expect(line).toMatch(/every request is refused with 403$/);
  });

  it('gives other errors as they are', () => {
    expect(unreadableTokenProblem('/t', error('EISDIR', 'EISDIR: illegal operation on a directory'))).toBe(
      'token file /t cannot be read (EISDIR: illegal operation on a directory): every request is refused with 403',
    );
  });
});
