import { resultsFile } from './results-file.js';

describe('resultsFile', () => {
  it('leaves the tracked bench/results.json alone unless --write', () => {
    expect(resultsFile({ write: false }, '/repo', '/repo/bench/.work')).toBe(
      '/repo/bench/.work/results.json',
    );
    expect(resultsFile({ write: true }, '/repo', '/repo/bench/.work')).toBe('/repo/bench/results.json');
    expect(resultsFile({ write: false, out: '/tmp/r.json' }, '/repo', '/w')).toBe('/tmp/r.json');
  });
});
