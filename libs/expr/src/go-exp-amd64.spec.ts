import { describe, expect, it } from '@jest/globals';

import { fma, goExpAmd64 } from './go-exp-amd64.js';
import { goValue } from './spec-helpers.js';

describe("math.Exp as Go's amd64 assembly computes it", () => {
  it('rounds a·b + c once (FMA)', () => {
    // 0.1·10 − 1 is 2^-54·5.55e-17-ish with one rounding, 0 when the product is rounded first
    expect(fma(0.1, 10, -1)).toBe(5.551115123125783e-17);
    expect(0.1 * 10 - 1).toBe(0);
    expect(fma(2, 3, 4)).toBe(10);
  });

  it('gives the last bit the assembly gives, so fractional powers match Go', () => {
    expect(goValue('0.1 ^ 2.5')).toBe(0.00316227766016838); // portable exp.go: 0.0031622776601683807
    expect(goValue('1e21 ** 1.5')).toBe(3.162277660168377e31);
    expect(goValue('1e-7 ** 2.5')).toBe(3.162277660168377e-18);
    expect(goValue('3 ** 1.7')).toBe(6.473007839923779);
  });

  it("reads a subnormal base as Go's amd64 Log does (its bits as if normal)", () => {
    expect(goValue('5e-324 ** 0.1')).toBe(1.6018854016437714e-31); // exact: 4.670662276233874e-33
    expect(goValue('1e-310 ** 0.5')).toBe(Math.sqrt(1e-310)); // y = 0.5 is Sqrt, not Log
  });

  it('keeps the special cases', () => {
    expect(goExpAmd64(0)).toBe(1);
    expect(goExpAmd64(Infinity)).toBe(Infinity);
    expect(goExpAmd64(-Infinity)).toBe(0);
    expect(goExpAmd64(710)).toBe(Infinity);
    expect(goExpAmd64(-746)).toBe(0);
    expect(Number.isNaN(goExpAmd64(NaN))).toBe(true);
  });
});
