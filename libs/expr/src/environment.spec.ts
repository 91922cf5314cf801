import { describe, expect, it } from '@jest/globals';

import { eventEnv } from './environment.js';
import { goValue } from './spec-helpers.js';

describe('eventEnv: the JSON round trip Argo applies to the event', () => {
  it('keeps -0, as Go writes it `-0` and reads it back', () => {
    const env = eventEnv({ f: -0, list: [-0, 1] }, {}, 'd', 'ns');
    expect(Object.is((env.payload as { f: number }).f, -0)).toBe(true);
    expect(goValue('string(payload.f)', env)).toBe('-0');
    expect(goValue('toJSON(payload.list)', env)).toBe('[\n  -0,\n  1\n]');
  });

  it('drops what JSON drops and turns non-finite numbers into null', () => {
    const env = eventEnv(
      { u: undefined, fn: () => 1, n: Number.NaN, l: [undefined], d: new Date(0) },
      {},
      'd',
      'ns',
    );
    expect(env.payload).toEqual({ n: null, l: [null], d: '1970-01-01T00:00:00.000Z' });
  });
});
