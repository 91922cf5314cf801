// Go's math.Pow, step for step (Frexp, repeated squaring, Ldexp), so `**` rounds exactly like Go: JavaScript's
// Math.pow may differ in the last bit (5 ^ 42: Go 2.2737367544323207e+29).

import { goExpAmd64 } from './go-exp-amd64.js';

const view = new DataView(new ArrayBuffer(8));

function bits(f: number): bigint {
  view.setFloat64(0, f);
  return view.getBigUint64(0);
}

function fromBits(b: bigint): number {
  view.setBigUint64(0, b);
  return view.getFloat64(0);
}

const SMALLEST_NORMAL = 2.2250738585072014e-308;
const SHIFT = 52n;
const MASK = 0x7ffn;
const BIAS = 1023;

function normalize(x: number): [number, number] {
  return Math.abs(x) < SMALLEST_NORMAL ? [x * 2 ** 52, -52] : [x, 0];
}

/** math.Frexp: x = frac × 2^exp with |frac| in [½, 1). */
export function frexp(f: number): [number, number] {
  if (f === 0 || !Number.isFinite(f)) return [f, 0];
  const [n, e] = normalize(f);
  let x = bits(n);
  const exp = e + Number((x >> SHIFT) & MASK) - BIAS + 1;
  x &= ~(MASK << SHIFT);
  x |= BigInt(-1 + BIAS) << SHIFT;
  return [fromBits(x), exp];
}

/** math.Ldexp: frac × 2^exp, rounding once for subnormal results. */
export function ldexp(frac: number, exponent: number): number {
  if (frac === 0 || !Number.isFinite(frac)) return frac;
  const [n, e] = normalize(frac);
  let exp = exponent + e;
  let x = bits(n);
  exp += Number((x >> SHIFT) & MASK) - BIAS;
  if (exp < -1075) return frac < 0 ? -0 : 0;
  if (exp > 1023) return frac < 0 ? -Infinity : Infinity;
  let m = 1;
  if (exp < -1022) {
    exp += 53;
    m = 2 ** -53;
  }
  x &= ~(MASK << SHIFT);
  x |= BigInt(exp + BIAS) << SHIFT;
  return m * fromBits(x);
}

const isOddInt = (y: number): boolean =>
  Number.isInteger(y) && Math.abs(y) < 2 ** 53 && Math.abs(y % 2) === 1;

/** math.Pow. */
export function goPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0) {
    const negativeZero = Object.is(x, -0);
    if (y < 0) return negativeZero && isOddInt(y) ? -Infinity : Infinity;
    return negativeZero && isOddInt(y) ? x : 0;
  }
  if (!Number.isFinite(y)) {
    if (x === -1) return 1;
    return Math.abs(x) < 1 === y > 0 ? 0 : Infinity;
  }
  if (!Number.isFinite(x)) {
    if (x < 0) return goPow(1 / x, -y);
    return y < 0 ? 0 : Infinity;
  }
  if (y === 0.5) return Math.sqrt(x);
  if (y === -0.5) return 1 / Math.sqrt(x);

  let yi = Math.trunc(Math.abs(y));
  let yf = Math.abs(y) - yi;
  if (yf !== 0 && x < 0) return NaN;
  if (yi >= 2 ** 63) {
    if (x === -1) return 1;
    return Math.abs(x) < 1 === y > 0 ? 0 : Infinity;
  }
  let a1 = 1;
  let ae = 0;
  if (yf !== 0) {
    if (yf > 0.5) {
      yf--;
      yi++;
    }
    a1 = goExpAmd64(yf * goLog(x));
  }
  let [x1, xe] = frexp(x);
  for (let i = BigInt(yi); i !== 0n; i >>= 1n) {
    if (xe < -(1 << 12) || 1 << 12 < xe) {
      ae += xe;
      break;
    }
    if ((i & 1n) === 1n) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe <<= 1;
    if (x1 < 0.5) {
      x1 += x1;
      xe--;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  return ldexp(a1, ae);
}

const LN2_HI = 6.9314718036912381649e-1;
const LN2_LO = 1.90821492927058770002e-10;

/** math.Log (the portable algorithm). */
/**
 * Frexp as Go's amd64 log assembly does it, straight from the bits: the mantissa under exponent 0x3FE and the
 * biased exponent minus 0x3FE. Normal numbers get Frexp's answer; a subnormal is read as if it were normal
 * (5e-324 as 0.5 × 2^-1022), so Go's Log(5e-324) is -709.09, not -744.44.
 */
function bitsFrexp(x: number): [number, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const exponent = (high >>> 20) & 0x7ff;
  view.setUint32(0, (high & 0x800fffff) | (0x3fe << 20));
  return [view.getFloat64(0), exponent - 0x3fe];
}

/** math.Log as Go's amd64 assembly computes it. */
export function goLog(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x < 0) return NaN;
  if (x === 0) return -Infinity;
  let [f1, ki] = bitsFrexp(x);
  if (f1 < Math.SQRT2 / 2) {
    f1 *= 2;
    ki--;
  }
  const f = f1 - 1;
  const k = ki;
  const s = f / (2 + f);
  const s2 = s * s;
  const s4 = s2 * s2;
  const t1 =
    s2 *
    (6.66666666666673513e-1 +
      s4 * (2.857142874366239149e-1 + s4 * (1.818357216161805012e-1 + s4 * 1.479819860511658591e-1)));
  const t2 = s4 * (3.999999999940941908e-1 + s4 * (2.222219843214978396e-1 + s4 * 1.531383769920937332e-1));
  const r = t1 + t2;
  const hfsq = 0.5 * f * f;
  return k * LN2_HI - (hfsq - (s * (hfsq + r) + k * LN2_LO) - f);
}
