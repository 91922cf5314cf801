import { olderResourceVersion } from './taskset.js';

describe('olderResourceVersion', () => {
  it('compares the revisions of the API server as integers, beyond 2^53 too', () => {
    expect(olderResourceVersion('9', '10')).toBe(true);
    expect(olderResourceVersion('10', '9')).toBe(false);
    expect(olderResourceVersion('10', '10')).toBe(false);
    expect(olderResourceVersion('9007199254740993', '9007199254740994')).toBe(true);
  });

  it('anything not an integer on either side is never older (the object is taken)', () => {
    expect(olderResourceVersion('', '5')).toBe(false);
    expect(olderResourceVersion('a1', '5')).toBe(false);
    expect(olderResourceVersion('5', 'opaque')).toBe(false);
  });
});
